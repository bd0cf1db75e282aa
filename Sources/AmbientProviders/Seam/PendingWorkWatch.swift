// SPDX-License-Identifier: Apache-2.0

import AmbientCore

// Why: a test's end names the work it left pending; the queues that hold such work register
// with the test's watch, which AmbientTestClock implements.

/// What a test's ``IssueReporter`` holds under AmbientTesting (AmbientTestClock's
/// `PendingWorkCheck`): the queues made during the test, asked when it ends what they still
/// have pending.
package protocol PendingWorkWatch: AnyObject, Sendable {
    /// Records now, as the test's, the reports that work on other threads made meanwhile:
    /// called by every wait as it returns.
    func deliverHeldReports()

    /// The test's own count of the work no tracked or driven queue counts (a thread it
    /// starts, live main-queue work and timers), for the report.
    var workOutsideQueues: any CountedWork { get }

    /// The work pending now, a line each, as the test's end would report it.
    var pending: [String] { get }

    /// Watches `source` until the test ends.
    func watch(_ source: any PendingWorkSource)
}

/// A queue a test's end asks what it still has pending: a tracked or driven background queue
/// (its submissions), a driven main queue (its deferred work and its timers).
@usableFromInline
package protocol PendingWorkSource: AnyObject, Sendable {
    /// One line per piece of work not yet run: where it came from and what it waits for.
    func pendingWork() -> [String]
}
