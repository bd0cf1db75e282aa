// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientTesting
import Foundation
import LegacyKit
import Testing

@testable import AppCore

/// Main-actor tests (this target isolates to the main actor by default) of main-actor code,
/// as an app's test target has them. Nothing here is annotated for Ambient's sake.
@Suite(.injecting(Defaults.inMemory()), .injecting(AnalyticsClient()))
struct CheckoutViewModelTests {
    @Test func aSyncScopeInjectsEveryKindOfValue() {
        let analytics = AnalyticsClient()
        let cache = ImageCache()
        cache.store(Data([1]), named: "avatar-me")
        let model = CheckoutViewModel()
        withInjected(FeatureFlags(expressCheckout: true), analytics, cache) {
            model.load()
        }
        #expect(model.title == "Pay now")
        #expect(model.status == "idle")  // the injected cache had the avatar
        #expect(analytics.events == ["checkout.load"])
    }

    @Test(.injecting(FeatureFlags(expressCheckout: true)))
    func traitsInjectAroundTheTest() {
        Defaults.current.set(true, forKey: "returningCustomer")
        let model = CheckoutViewModel()
        model.load()
        #expect(model.title == "Pay now again")
        #expect(AnalyticsClient.current.events == ["checkout.load"])  // this test's own client
    }

    @Test func eachTestGetsAFreshMainActorFake() {
        #expect(AnalyticsClient.current.events.isEmpty)
        #expect(AnalyticsClient.current !== AnalyticsClient.shared)
    }

    @Test func anAsyncScopeStaysOnTheMainActorWithATestClock() async throws {
        let clock = TestClock(start: Date(timeIntervalSince1970: 100))
        let model = CheckoutViewModel()
        var observed: [String] = []  // a non-Sendable local, mutated inside the scope
        try await withInjected(clock.clock) {
            let confirming = Task { try await model.confirm() }
            try await clock.waitForSleepers()
            observed.append(model.status)
            await clock.advance(by: .seconds(2))
            try await confirming.value
            observed.append(model.status)
        }
        #expect(observed == ["confirming", "confirmed at 102.0"])
        #expect(AnalyticsClient.current.events == ["checkout.confirm"])
    }

    @Test func mainQueueWorkRunsWithTheCallersValues() async {
        let analytics = AnalyticsClient()
        let model = CheckoutViewModel()
        await withInjected(analytics, FeatureFlags(expressCheckout: true)) {
            await withCheckedContinuation { done in
                model.refreshLater { done.resume() }
            }
        }
        #expect(model.title == "Pay now")
        #expect(analytics.events == ["checkout.load"])
    }

    @Test func notificationsOnTheMainQueueSeeTheObserversValues() async {
        let analytics = AnalyticsClient()
        let center = NotificationCenter()
        let model = CheckoutViewModel()
        withInjected(analytics) { model.observeSync(on: center) }
        await Task.detached { center.post(name: .checkoutDidSync, object: nil) }.value
        while model.status != "synced" { await Task.yield() }
        #expect(analytics.events == ["checkout.sync"])
    }

    @Test(
        .strict(allowing: [Clock.self, ImageCache.self]),
        .injecting(FeatureFlags(expressCheckout: false), Logger.capturing()))
    func strictModeCoversMainActorSingletons() {
        // The suite injects AnalyticsClient and Defaults, this test the flags and a
        // capturing logger; the log's timestamps read the live clock, and the legacy cache
        // is left live, both allowed by name: strict mode reports nothing.
        CheckoutViewModel().load()
        #expect(Logger.current.captured.map(\.message) == ["checkout loaded"])
    }

    @Test(.injecting(mainActorFresh: { (AnalyticsClient(), FeatureFlags(expressCheckout: true)) }))
    func valuesBuiltTogetherOnTheMainActor() {
        let model = CheckoutViewModel()
        model.load()
        #expect(model.title == "Pay now")
        #expect(AnalyticsClient.current.events == ["checkout.load"])
    }
}
