// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: any Swift.Clock (a test clock of another library) can be the ambient clock.

/// Any `Swift.Clock` measured in `Duration`.
package struct SwiftClockBackend<C: Swift.Clock>: ClockBackend where C.Duration == Swift.Duration {
    package let clock: C
    package let origin: C.Instant
    let wallTimeAtStart: Date

    package init(clock: C, wallTimeAtStart: Date) {
        self.clock = clock
        self.origin = clock.now
        self.wallTimeAtStart = wallTimeAtStart
    }

    package var now: Date { wallTimeAtStart.adding(elapsed) }
    package var elapsed: Duration { origin.duration(to: clock.now) }

    package func sleep(until offset: Duration) async throws {
        try await clock.sleep(until: origin.advanced(by: offset), tolerance: nil)
    }

    /// A `Swift.Clock` can only sleep asynchronously: a detached task sleeps on it while
    /// this thread waits (never from a task: `Clock.sleep(until:)` throws there first).
    package var blockingSleepNeedsTheConcurrencyPool: Bool { true }

    package func blockingSleep(until offset: Duration) {
        let deadline = origin.advanced(by: offset)
        guard let thread = CarryingThread.Running.current?.takeUnretainedValue() else {
            let done = DispatchSemaphore(value: 0)
            Task.detached { [clock] in
                try? await clock.sleep(until: deadline, tolerance: nil)
                done.signal()
            }
            return done.wait()
        }
        // On a carrying thread, `cancel()` cancels the sleeping task, which wakes it.
        let done = DispatchSemaphore(value: 0)
        let sleeper = Task.detached { [clock] in
            try? await clock.sleep(until: deadline, tolerance: nil)
            done.signal()
        }
        let wake: @Sendable () -> Void = { sleeper.cancel() }
        thread.sleeping(wakingWith: wake) { done.wait() }
    }

    /// `Clock(<the clock's description>)` where it has one, else `Clock(<its type>)`.
    package var description: String {
        if let described = clock as? any CustomStringConvertible { return "Clock(\(described))" }
        return "Clock(\(C.self))"
    }
}
