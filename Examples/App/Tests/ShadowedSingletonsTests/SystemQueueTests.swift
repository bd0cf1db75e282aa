// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientTesting
import Foundation
import ShadowedSingletons
import Testing

/// The system APIs that take a queue, as legacy code hands them one, are carried: a
/// `DispatchSource` timer on a module queue, a work item's `notify(queue: .global())`, an
/// observer delivering on `.main`, and `RunLoop.main.perform`.
@Suite
struct SystemQueueTests {
    /// The sweep's `Date()` is the clock of the scope that made the cache: a fixed clock's noon
    /// in 1970, so an entry kept for a minute is never swept (live, it would be at the first tick).
    @Test func aDispatchSourceTimersTicksReadTheScopeThatSetIt() throws {
        let noon = Date(timeIntervalSince1970: 43_200)
        let cache = withInjected(Clock.fixed(noon)) {
            let cache = ExpiringCache(sweepEvery: 0.005)
            cache.insert("kept", for: 60)
            cache.insert("expired", for: -1)
            return cache
        }
        // Until a sweep has run (it removes the expired entry), however loaded the machine is.
        let start = Date()
        while cache.keys.contains("expired"), Date().timeIntervalSince(start) < 30 {
            Thread.sleep(forTimeInterval: 0.005)
        }
        #expect(cache.keys == ["kept"])
    }

    @Test func aWorkItemsNotificationOnTheGlobalQueueCarriesAndIsWaitedFor() async {
        #expect(await deliveredAfterTrackedWork(notifyAfterItem) == ["item"])
    }

    @Test func aGroupNotificationWithItsFlagsCarriesAndIsWaitedFor() async {
        #expect(await deliveredAfterTrackedWork(notifyWithFlags) == ["flags"])
    }

    @Test func anObserverOnTheMainQueueRunsOnTheDrivenQueueInTheAddersScope() async {
        let testClock = TestClock()
        let notifications = Notifications.isolated()
        let seen = Delivered<String?>()
        let token = withInjected(MainQueue.driven(by: testClock), Defaults.inMemory(["observed": "yes"]), notifications)
        {
            observeOnMain("ping") { seen.record($0) }
        }
        defer { notifications.removeObserver(token) }
        notifications.post(name: Notification.Name("ping"))
        await testClock.run()
        #expect(seen.all == ["yes"])
    }

    @Test func aWorkItemAndABlockOperationOnTheMainQueuesRunOnTheDrivenQueue() async {
        let testClock = TestClock()
        let done = Delivered<String>()
        withInjected(MainQueue.driven(by: testClock)) { refreshOnMain { done.record($0) } }
        await testClock.run()
        #expect(done.all == ["item", "operation"])
    }

    @Test func theMainRunLoopsPerformRunsOnTheDrivenQueue() async {
        let testClock = TestClock()
        let done = Delivered<String?>()
        withInjected(MainQueue.driven(by: testClock), Defaults.inMemory(["performed": "yes"])) {
            performOnMainRunLoop { done.record($0) }
        }
        await testClock.run()
        #expect(done.all == ["yes"])
    }
}

/// A Dispatch queue the module did not make (handed in through a public API typed
/// `Dispatch.DispatchQueue`) carries too: its `async` and `asyncAfter` in the module are the
/// file's, and a driven queue runs them on the test clock.
@Suite
struct HandedInQueueTests {
    @Test func workOnAQueueHandedInCarriesAndIsDriven() async {
        let testClock = TestClock()
        let delivered = Delivered<Bool>()
        let defaults = Defaults.inMemory(["flag": true, "later": true])
        withInjected(BackgroundQueue.driven(by: testClock), defaults) {
            readFlag(on: DispatchQueue(label: "handed.in")) { delivered.record($0) }
        }
        await testClock.advance(by: .seconds(4))
        #expect(delivered.all == [true])
        await testClock.advance(by: .seconds(1))
        #expect(delivered.all == [true, true])
    }
}
