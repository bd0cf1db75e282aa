// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: the live clock is the system's, with one origin so live instants compare.

/// The system clock: `Date()` and `ContinuousClock`.
struct LiveClockBackend: ClockBackend {
    /// One origin for every live clock, so their instants compare.
    static let shared = LiveClockBackend()

    let origin = ContinuousClock.now

    var now: Date { Date() }
    var elapsed: Duration { ContinuousClock.now - origin }

    func sleep(until offset: Duration) async throws {
        try await ContinuousClock().sleep(until: origin + offset, tolerance: nil)
    }

    func blockingSleep(until offset: Duration) {
        let remaining = (origin + offset) - ContinuousClock.now
        guard remaining > .zero else { return }
        guard let thread = CarryingThread.Running.current?.takeUnretainedValue() else {
            return Thread.sleep(forTimeInterval: remaining.timeInterval)
        }
        // On a carrying thread, `cancel()` wakes the sleep.
        let woken = DispatchSemaphore(value: 0)
        let wake: @Sendable () -> Void = { woken.signal() }
        thread.sleeping(asleep: .asleepInRealTime(ContinuousClock.now + remaining), wakingWith: wake) {
            _ = woken.wait(timeout: .now() + remaining.timeInterval)
        }
    }

    var description: String { "Clock.live" }
}
