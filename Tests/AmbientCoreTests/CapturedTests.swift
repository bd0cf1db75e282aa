// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Dispatch
import Foundation
import Testing

/// An object that reads its ambient values in callbacks, as legacy managers do.
final class Scheduler: @unchecked Sendable {
    // @unchecked: the wrappers are only written by `init`.
    @Captured var tag: Tag
    @Captured var number: Number

    /// Reads on a global queue, later, and hands back what it saw.
    func readLater() async -> (Tag, Number) {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(5)) { [self] in
                continuation.resume(returning: (tag, number))
            }
        }
    }
}

/// The `Sendable` spelling: a `let` of the wrapper type.
final class SendablePoller: Sendable {
    private let tag = Captured<Tag>()
    func read() -> Tag { tag.wrappedValue }
}

@Suite("@Captured: an object keeps its creating scope's values")
struct CapturedTests {
    @Test func aCallbackOnAnotherQueueSeesTheCreatingScopesValues() async {
        let scheduler = withInjected(Tag("created"), Number(value: 7)) { Scheduler() }
        let (tag, number) = await scheduler.readLater()
        #expect(tag == Tag("created"))
        #expect(number == Number(value: 7))
    }

    @Test func withoutTheWrapperTheCallbackSeesTheDefault() async {
        let tag = await withInjected(Tag("created")) {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(returning: Tag.current) }
            }
        }
        #expect(tag == Tag.defaultValue)  // why the wrapper exists
    }

    @Test func theScopeAroundTheReadWinsOverTheCreatingOne() {
        let scheduler = withInjected(Tag("created")) { Scheduler() }
        withInjected(Tag("around the read")) {
            #expect(scheduler.tag == Tag("around the read"))
            #expect(scheduler.number == Number.defaultValue)  // neither scope injects one
        }
        #expect(scheduler.tag == Tag("created"))
    }

    @Test func anObjectMadeOutsideAnyScopeReadsTheScopeItIsUsedIn() {
        let singleton = Scheduler()  // made at launch, before any test scope
        withInjected(Tag("test")) {
            #expect(singleton.tag == Tag("test"))
        }
        #expect(singleton.tag == Tag.defaultValue)
    }

    @Test func theSendableSpellingAndTheProjectedContextWork() async {
        let (poller, scheduler) = withInjected(Tag("sendable")) { (SendablePoller(), Scheduler()) }
        let tag = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: poller.read()) }
        }
        #expect(tag == Tag("sendable"))
        #expect(scheduler.$tag.run { Tag.current } == Tag("sendable"))
    }

    @Test func capturedValuesLiveAsLongAsTheObject() {
        weak var weakService: Service?
        var holder: Holder? = nil
        do {
            let service = Service(name: "held")
            weakService = service
            holder = withInjected(service) { Holder() }
        }
        #expect(holder?.service.name == "held")
        holder = nil
        #expect(weakService == nil)
    }

    @Test func manyObjectsOnManyThreadsEachKeepTheirOwn() {
        let mismatches = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            let schedulers = (0..<200).map { index in
                withInjected(Number(value: worker * 1_000 + index)) { Scheduler() }
            }
            for (index, scheduler) in schedulers.enumerated() where scheduler.number.value != worker * 1_000 + index {
                mismatches.withLock { $0 += 1 }
            }
        }
        #expect(mismatches.get() == 0)
    }
}

final class Holder {
    @Captured var service: Service
}
