// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: sleeps that return at once and move time, for tests that need no control over when.

/// A clock whose sleeps return at once and move its time forward.
final class ImmediateClockBackend: ClockBackend {
    let start: Date
    private let offset = Locked(Duration.zero)

    init(start: Date) {
        self.start = start
    }

    var now: Date { start.adding(elapsed) }
    var elapsed: Duration { offset.withLock { $0 } }

    func sleep(until deadline: Duration) async throws {
        try Task.checkCancellation()
        offset.withLock { $0 = max($0, deadline) }
        await Task.yield()
    }

    func blockingSleep(until deadline: Duration) {
        offset.withLock { $0 = max($0, deadline) }
    }

    var description: String { "Clock.immediate(now: \(now))" }
}
