// SPDX-License-Identifier: Apache-2.0

import AmbientCore

// Why: work a test left pending is a test that passes today and fails tomorrow; the test
// frameworks' integrations report it when the test ends.

/// The tracked and driven background queues and the driven main queues made during one test,
/// asked when the test ends what they still have pending. AmbientTesting's traits and `InjectingTestCase` make one per
/// test and hand it to their ``IssueReporter``; a queue made where that reporter is current
/// registers itself. It also delivers, when a wait returns, the reports that work the wait
/// covered made away from the test's task, so `withKnownIssue` around the wait sees them.
package final class PendingWorkCheck: Sendable {
    /// Weak: a queue nothing holds has nothing pending (pending work holds its queue), and a
    /// test that makes thousands of them keeps none alive.
    private let watched = Locked<[Weak]>([])

    private struct Weak: Sendable {
        weak var work: (any PendingWorkSource)?
    }
    private let deliverHeld: (@Sendable () -> Void)?

    /// A check whose `deliverHeldReports()` calls `deliverHeld` (the test framework's
    /// recorder, recording now what it held back).
    package init(deliveringHeldReports deliverHeld: (@Sendable () -> Void)? = nil) {
        self.deliverHeld = deliverHeld
    }

    /// Called by every wait as it returns, in the waiting task: the reports made meanwhile
    /// by work on other threads are recorded now, as the test's. AmbientVapor calls it too,
    /// when an `.inMemory` request's event-loop work has answered.
    package func deliverHeldReports() {
        deliverHeld?()
    }

    /// Watches the tracked or driven queue `context` injects, if any: one made before the
    /// test's reporter was current (by a trait's `fresh:` closure, by `InjectingTestCase`'s
    /// `injections`), which did not register itself.
    package func watch(queueOf context: InjectionContext) {
        if let work = context[BackgroundQueue.self]?.state.object { watch(work) }
        if let driver = context[MainQueue.self]?.state.object { watch(driver) }
    }

    /// Watches `work` until the test ends (listed once in the report, however often it is
    /// handed in).
    func watch(_ work: any PendingWorkSource) {
        watched.withLock { watched in
            // Gone queues dropped as the list doubles: amortised, and bounded by the live ones.
            if watched.count == watched.capacity { watched.removeAll { $0.work == nil } }
            watched.append(Weak(work: work))
        }
    }

    /// The report of the work still pending, or `nil` when there is none: each piece by
    /// where it was submitted and what it waits for. Stops watching.
    package func report() -> String? {
        let watched = self.watched.withLock { watched in
            defer { watched = [] }
            return watched
        }
        var seen = Set<ObjectIdentifier>()
        let sources = watched.compactMap(\.work).filter { seen.insert(ObjectIdentifier($0)).inserted }
        let lines = sources.flatMap { $0.pendingWork() }
        guard !lines.isEmpty else { return nil }
        return "The test ended with \(lines.count) piece(s) of background work pending; wait for them "
            + "(BackgroundQueue.finished(), TestClock.advance(by:) or run()) or cancel them before the test ends:\n"
            + lines.map { "- " + $0 }.joined(separator: "\n")
    }
}

/// A queue a test's end asks what it still has pending: a tracked or driven background queue
/// (its submissions), a driven main queue (its deferred work and its timers).
protocol PendingWorkSource: AnyObject, Sendable {
    /// One line per piece of work not yet run: where it came from and what it waits for.
    func pendingWork() -> [String]
}

extension BackgroundWork: PendingWorkSource {}
