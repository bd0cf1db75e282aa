// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: every kind of clock answers the same three questions behind one reference.

/// What a ``Clock`` delegates to.
@usableFromInline
package protocol ClockBackend: Sendable, CustomStringConvertible {
    var now: Date { get }
    /// Monotonic time since this backend's origin.
    var elapsed: Duration { get }
    /// Returns once `elapsed` has reached `offset`; throws `CancellationError` if cancelled.
    func sleep(until offset: Duration) async throws
    /// Blocks the calling thread until `elapsed` has reached `offset`.
    func blockingSleep(until offset: Duration)
    /// Whether `blockingSleep` waits for an asynchronous sleep, which needs a thread of the
    /// concurrency pool: then it must not be called from a task (``Clock/BlockingSleepInsideATask``).
    var blockingSleepNeedsTheConcurrencyPool: Bool { get }
    /// What counts the jobs enqueued where this clock is injected: a test clock's; `nil` for
    /// every other.
    var jobCounter: (any JobCounter)? { get }
}

extension ClockBackend {
    package var blockingSleepNeedsTheConcurrencyPool: Bool { false }
    package var jobCounter: (any JobCounter)? { nil }
}
