// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders

// Why: work a test left pending is a test that passes today and fails tomorrow; the test
// frameworks' integrations report it when the test ends.

/// The tracked and driven background queues and the driven main queues made during one test,
/// asked when the test ends what they still have pending. AmbientTesting's traits and `InjectingTestCase` make one per
/// test and hand it to their `IssueReporter`; a queue made where that reporter is current
/// registers itself. It also delivers, when a wait returns, the reports that work the wait
/// covered made away from the test's task, so `withKnownIssue` around the wait sees them.
package final class PendingWorkCheck: PendingWorkWatch {
    /// Weak: a queue nothing holds has nothing pending (pending work holds its queue), and a
    /// test that makes thousands of them keeps none alive.
    private let watched = Locked<[Weak]>([])

    private struct Weak: Sendable {
        weak var work: (any PendingWorkSource)?
    }
    private let deliverHeld: (@Sendable () -> Void)?
    /// The test's own count (``workOutsideQueues``), once something is counted there.
    private let outsideQueues = Locked<BackgroundWork?>(nil)

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

    /// The test's own count of the work no tracked or driven queue counts: the threads it
    /// starts (`CarryingThread`) and the work and timers it puts on the live main queue, each
    /// from where it is started until it ends, for the report. Nothing waits on it: a test
    /// waits for such work by injecting a tracked `BackgroundQueue`, which counts it instead.
    package var workOutsideQueues: any CountedWork {
        var made: BackgroundWork?
        let work = outsideQueues.withLock { work in
            if let work { return work }
            let new = BackgroundWork(testClock: nil)
            work = new
            made = new
            return new
        }
        if let made { watch(made) }
        return work
    }

    /// Watches the tracked or driven queue `context` injects, if any: one made before the
    /// test's reporter was current (by a trait's `fresh:` closure, by `InjectingTestCase`'s
    /// `injections`), which did not register itself.
    package func watch(queueOf context: InjectionContext) {
        if let work = context[BackgroundQueue.self]?.work { watch(work) }
        if let driver = context[MainQueue.self]?.state.object?.wrapped { watch(driver) }
    }

    /// Watches `work` until the test ends (listed once in the report, however often it is
    /// handed in).
    package func watch(_ work: any PendingWorkSource) {
        watched.withLock { watched in
            // Gone queues dropped as the list doubles: amortised, and bounded by the live ones.
            if watched.count == watched.capacity { watched.removeAll { $0.work == nil } }
            watched.append(Weak(work: work))
        }
    }

    /// The work pending now, a line each (as ``report()`` lists it), watching on.
    package var pending: [String] {
        lines(of: watched.get()).all
    }

    /// Each watched source's pending work, a line each (each source once, however often it
    /// was handed in), and how many of the lines are the test's own count's.
    private func lines(of watched: [Weak]) -> (all: [String], outsideQueues: Int) {
        let own = outsideQueues.withLock { $0 }
        var seen = Set<ObjectIdentifier>()
        var outside = 0
        let all = watched.compactMap(\.work).filter { seen.insert(ObjectIdentifier($0)).inserted }.flatMap {
            source -> [String] in
            let lines = source.pendingWork()
            if source === own { outside = lines.count }
            return lines
        }
        return (all, outside)
    }

    /// The report of the work still pending, or `nil` when there is none: each piece by
    /// where it was submitted and what it waits for. Stops watching.
    package func report() -> String? {
        let watched = self.watched.withLock { watched in
            defer { watched = [] }
            return watched
        }
        let (lines, outside) = lines(of: watched)
        guard !lines.isEmpty else { return nil }
        let untracked =
            outside == 0
            ? ""
            : " Of them, \(outside) ran where no tracked queue counts (a thread, the live main queue): inject "
                + "BackgroundQueue.tracked() so that finished() waits for it, or stop it."
        return "The test ended with \(lines.count) piece(s) of background work pending; wait for them "
            + "(BackgroundQueue.finished(), TestClock.advance(by:) or run()) or cancel them before the test ends."
            + untracked + "\n" + lines.map { "- " + $0 }.joined(separator: "\n")
    }
}
