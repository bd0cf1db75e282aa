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
        if remaining > .zero { Thread.sleep(forTimeInterval: remaining.timeInterval) }
    }

    var description: String { "Clock.live" }
}
