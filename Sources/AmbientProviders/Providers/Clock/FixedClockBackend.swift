// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: a clock that stands still: the simplest deterministic test clock.

/// A clock whose time stands still.
struct FixedClockBackend: ClockBackend {
    let date: Date

    var now: Date { date }
    var elapsed: Duration { .zero }

    func sleep(until offset: Duration) async throws {
        try Task.checkCancellation()
    }

    func blockingSleep(until offset: Duration) {}

    var description: String { "Clock.fixed(\(date))" }
}
