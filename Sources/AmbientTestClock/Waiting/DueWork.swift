// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders

// Why: the queues a TestClock drives run their due work in one order; both take it the same way.

/// Work a test clock's queue holds until its deadline, in the order it was submitted.
protocol DueWork {
    /// When it may run, on the test clock.
    var deadline: Clock.Instant { get }
    /// Its place among the work submitted to the same queue.
    var order: UInt64 { get }
}

extension Array where Element: DueWork {
    /// Removes and returns the work due by `now` that runs first: the earliest deadline, then
    /// the earliest submitted.
    mutating func removeNextDue(by now: Clock.Instant) -> Element? {
        let due = indices.filter { self[$0].deadline <= now }
        guard
            let first = due.min(by: { (self[$0].deadline, self[$0].order) < (self[$1].deadline, self[$1].order) })
        else { return nil }
        return remove(at: first)
    }
}
