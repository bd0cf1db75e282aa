// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation
import Testing

@Suite("Lifetimes: injected values are released with their scope")
struct LifetimeTests {
    @Test func aValueIsReleasedWhenItsScopeEnds() {
        weak var weakService: Service?
        do {
            let service = Service(name: "scoped")
            weakService = service
            withInjected(service) { #expect(Service.current === service) }
        }
        #expect(weakService == nil)
    }

    @Test func aProcessWideValueIsReleasedOnceReadersOnOtherThreadsHaveReturned() async {
        // Pausing between batches of reads: three readers at full speed would take the cores
        // from the thread whose scopes they are there to overlap.
        let readers = BackgroundThreads(count: 3, pause: .microseconds(100)) { _ = ProcessWideResource.current }
        let leaked = await onOwnThread {
            var leaked = 0
            for _ in 0..<200 {
                weak var weakResource: ProcessWideResource?
                do {
                    let resource = ProcessWideResource(name: "scoped")
                    weakResource = resource
                    withInjectedProcessWide(resource) {
                        for _ in 0..<50 { _ = ProcessWideResource.current }
                    }
                }
                // Released once the reads that started in the scope have returned (a reader
                // may still be dropping the copy it read), with the readers still running.
                let deadline = ContinuousClock.now + .seconds(5)
                while weakResource != nil, ContinuousClock.now < deadline { sched_yield() }
                if weakResource != nil { leaked += 1 }
            }
            return leaked
        }
        readers.stop()
        #expect(leaked == 0)
    }

    @Test func aCapturedContextKeepsItsValuesAliveUntilItIsGone() {
        weak var weakService: Service?
        var captured: InjectionContext? = nil
        do {
            let service = Service(name: "captured")
            weakService = service
            captured = withInjected(service) { InjectionContext.current }
        }
        #expect(weakService != nil)
        #expect(captured?[Service.self]?.name == "captured")
        captured = nil
        #expect(weakService == nil)
    }

    @Test func nestedAndDuplicateValuesAreAllReleased() {
        weak var outer: Service?
        weak var inner: Service?
        weak var shadowed: Service?
        do {
            let outerService = Service(name: "outer")
            let innerService = Service(name: "inner")
            let shadowedService = Service(name: "shadowed")
            (outer, inner, shadowed) = (outerService, innerService, shadowedService)
            withInjected(outerService, Tag("t")) {
                withInjected(shadowedService, Number(value: 1), innerService) {
                    #expect(Service.current === innerService)
                }
                #expect(Service.current === outerService)
            }
        }
        #expect(outer == nil)
        #expect(inner == nil)
        #expect(shadowed == nil)
    }

    @Test func aBoundClosureReleasesItsContextWithIt() {
        weak var weakService: Service?
        var bound: (@Sendable () -> String)? = nil
        do {
            let service = Service(name: "bound")
            weakService = service
            bound = withInjected(service) { InjectionContext.current.bind { Service.current.name } }
        }
        #expect(bound?() == "bound")
        bound = nil
        #expect(weakService == nil)
    }

    @Test func aTaskLocalBindingIsReleasedAfterAsyncScopes() async {
        weak var weakService: Service?
        do {
            let service = Service(name: "async")
            weakService = service
            await withInjected(service) {
                async let child = Service.current.name
                _ = await child
            }
        }
        #expect(weakService == nil)
    }
}

/// A reference type injected only process-wide, by the lifetime suite.
final class ProcessWideResource: AmbientValue {
    let name: String
    init(name: String) { self.name = name }
    static let live = ProcessWideResource(name: "live")
    static var defaultValue: ProcessWideResource { live }
}
