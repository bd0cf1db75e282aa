// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Dispatch
import Foundation
import Testing

/// A legacy app singleton as it is written: a class with mutable state, no lock, no
/// `Sendable`, no `nonisolated`. The conformance alone makes it main-actor-isolated.
final class AnalyticsClient: MainActorAmbientValue {
    static let shared = AnalyticsClient(name: "live")
    static var defaultValue: AnalyticsClient { shared }

    let name: String
    private(set) var events: [String] = []

    init(name: String) { self.name = name }
    func track(_ event: String) { events.append(event) }
}

/// A main-actor type with a strict-mode stand-in.
final class Session: MainActorAmbientValue {
    static let live = Session(user: "live")
    static let standIn = Session(user: "test")
    static var defaultValue: Session { live }
    static var testValue: Session? { standIn }

    var user: String
    init(user: String) { self.user = user }
}

/// Only the process-wide test injects it (a process-wide value reaches every reader with
/// no binding, and tests run in parallel).
final class Appearance: MainActorAmbientValue {
    static let live = Appearance(name: "light")
    static var defaultValue: Appearance { live }
    let name: String
    init(name: String) { self.name = name }
}

/// Code under test: main-actor code reading the singleton through `current`.
@MainActor
func payAndTrack() -> String {
    AnalyticsClient.current.track("pay")
    return AnalyticsClient.current.name
}

@MainActor
@Suite struct MainActorAmbientValueTests {
    @Test func readsTheLiveSingletonOutsideEveryScope() {
        #expect(AnalyticsClient.current === AnalyticsClient.shared)
    }

    @Test func aScopeInjectsTheVeryInstanceTheCodeUses() {
        let fake = AnalyticsClient(name: "fake")
        let name = withInjected(fake) { payAndTrack() }
        #expect(name == "fake")
        #expect(fake.events == ["pay"])
        #expect(AnalyticsClient.current === AnalyticsClient.shared)  // restored
        #expect(!AnalyticsClient.shared.events.contains("pay"))  // the live one never saw it
    }

    @Test func scopesNestAndMixWithAmbientValues() {
        let outer = AnalyticsClient(name: "outer")
        let inner = AnalyticsClient(name: "inner")
        withInjected(outer, Tag("t")) {
            #expect(AnalyticsClient.current === outer)
            withInjected(inner) {
                #expect(AnalyticsClient.current === inner)
                #expect(Tag.current == Tag("t"))
            }
            #expect(AnalyticsClient.current === outer)
        }
    }

    @Test func asyncScopesStayOnTheMainActorAndReachChildTasks() async {
        let fake = AnalyticsClient(name: "fake")
        var local = 0  // a non-Sendable local, mutated inside: no `@Sendable` in the way
        await withInjected(fake) {
            MainActor.assertIsolated("the scope must not hop off the main actor")
            local += 1
            await Task.yield()
            #expect(AnalyticsClient.current === fake)
            let child = Task { @MainActor in AnalyticsClient.current.name }
            #expect(await child.value == "fake")
            async let fromChild = { @MainActor in AnalyticsClient.current.name }()
            #expect(await fromChild == "fake")
        }
        #expect(local == 1)
    }

    @Test func aContextCarriesItAndListsItsType() {
        let fake = AnalyticsClient(name: "fake")
        let context = InjectionContext().injecting(fake)
        #expect(context[AnalyticsClient.self] === fake)
        #expect(context.injectedTypes.map(ObjectIdentifier.init) == [ObjectIdentifier(AnalyticsClient.self)])
        let combined = InjectionContext().injecting(Tag("a")).injecting(contentsOf: context)
        combined.run { #expect(AnalyticsClient.current === fake) }
    }

    @Test func strictModeReportsAnUninjectedReadAndUsesTheTestValue() {
        let reported = Locked<[String]>([])
        let strict = StrictMode { type in reported.withLock { $0.append("\(type)") } }
        withInjected(strict) {
            #expect(Session.current === Session.standIn)
            #expect(AnalyticsClient.current === AnalyticsClient.shared)  // no test value
        }
        #expect(reported.get() == ["Session", "AnalyticsClient"])
        let allowing = StrictMode(allowing: [Session.self, Tag.self]) { _ in Issue.record("allowed") }
        withInjected(allowing) { #expect(Session.current === Session.live) }
    }

    @Test func aProcessWideScopeReachesIt() async {
        let dark = Appearance(name: "dark")
        await withInjectedProcessWide(dark) { () async in
            #expect(Appearance.current === dark)
            let thread = await Task.detached { Thread.isMainThread }.value  // an unbound task
            #expect(!thread)
            #expect(await Task.detached { await MainActor.run { Appearance.current.name } }.value == "dark")
        }
        #expect(Appearance.current === Appearance.live)
    }
}

/// `bindMainActor`: main-queue and `NotificationCenter` closures as an app writes them.
@MainActor
@Suite struct BindMainActorTests {
    @Test func aMainQueueBlockRunsInTheCapturedContext() async {
        let fake = AnalyticsClient(name: "fake")
        var seen = ""  // main-actor state, mutated by the bound closure
        let context = InjectionContext().injecting(fake, Tag("queued"))
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.async(
                execute: context.bindMainActor {
                    seen = payAndTrack() + "/" + Tag.current.name  // a main-actor call, no hop
                    done.resume()
                })
        }
        #expect(seen == "fake/queued")
        #expect(fake.events == ["pay"])
        #expect(Tag.current == Tag.defaultValue)  // nothing leaked into the caller
    }

    @Test func argumentsAndResultsPassThrough() {
        let context = InjectionContext().injecting(Tag("bound"))
        var calls = 0
        let format = context.bindMainActor { (count: Int, suffix: String) -> String in
            calls += 1
            return "\(Tag.current.name)-\(count)\(suffix)"
        }
        #expect(format(3, "!") == "bound-3!")
        #expect(calls == 1)
    }

    @Test func aNotificationObserverOnTheMainQueueSeesTheContext() async {
        let center = NotificationCenter()
        let name = Notification.Name("BindMainActorTests")
        let context = InjectionContext().injecting(Tag("observer"))
        var received: [String] = []
        let token = center.addObserver(
            forName: name, object: nil, queue: .main,
            using: context.bindMainActor { note in received.append("\(note.name.rawValue):\(Tag.current.name)") })
        defer { center.removeObserver(token) }
        await Task.detached { center.post(name: name, object: nil) }.value
        for _ in 0..<1_000 where received.isEmpty { await Task.yield() }
        for _ in 0..<200 where received.isEmpty { try? await Task.sleep(for: .milliseconds(5)) }
        #expect(received == ["BindMainActorTests:observer"])
    }

    @Test func calledOffTheMainActorItStopsWithAMessage() async {
        await #expect(processExitsWith: .failure) {
            let bound = InjectionContext().bindMainActor { _ = Tag.current }
            let thread = Thread { bound() }
            thread.start()
            while true { sleep(1) }
        }
    }
}
