// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders

// Why: a main queue whose deferred work and timers run on a test clock.

extension MainQueue {
    /// A main queue whose deadlines are `testClock`'s: work runs when the test advances the
    /// clock past them.
    ///
    /// ```swift
    /// let testClock = TestClock()
    /// await withInjected(testClock.clock, MainQueue.driven(by: testClock)) {
    ///     MainQueue.current.asyncAfter(deadline: .now() + 5) { print("five seconds on") }
    ///     await testClock.advance(by: .seconds(5))
    /// }
    /// ```
    public static func driven(by testClock: TestClock) -> MainQueue {
        MainQueue(driver: TestMainQueue(testClock: testClock))
    }
}
