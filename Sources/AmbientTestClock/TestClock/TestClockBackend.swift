// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation

// Why: a test clock is a `Swift.Clock` wrapped as any other is, plus two things only it
// has: the jobs it wakes are counted, and a carrying thread's blocking sleep on it is a
// sleeper like any other.

/// The backend of ``TestClock/clock``: `Clock(_:wallTimeAtStart:)`'s over the test clock's
/// `VirtualClock`, offering its job count to the global-enqueue hook (`Clock`'s seam).
struct TestClockBackend: ClockBackend {
    private let wrapped: SwiftClockBackend<VirtualClock>

    init(_ clock: VirtualClock, wallTimeAtStart: Date) {
        wrapped = SwiftClockBackend(clock: clock, wallTimeAtStart: wallTimeAtStart)
    }

    var now: Date { wrapped.now }
    var elapsed: Duration { wrapped.elapsed }
    var description: String { wrapped.description }
    var blockingSleepNeedsTheConcurrencyPool: Bool { true }
    var jobCounter: (any JobCounter)? { wrapped.clock.woken }

    func sleep(until offset: Duration) async throws {
        try await wrapped.sleep(until: offset)
    }

    /// On a carrying thread, a sleeper on the test clock that `cancel()` wakes; elsewhere
    /// as any `Swift.Clock`'s.
    func blockingSleep(until offset: Duration) {
        guard let thread = CarryingThread.Running.current?.takeUnretainedValue() else {
            return wrapped.blockingSleep(until: offset)
        }
        wrapped.clock.blockingSleep(until: wrapped.origin.advanced(by: offset), on: thread)
    }
}
