// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation

// Why: a test waits for the background work its scope started; the tracked and driven forms
// count it (BackgroundWork), and the waits live here with them, beside the test clock.

extension BackgroundQueue {
    /// The object behind the tracked or driven form (this module's only ``CountedWork``);
    /// `nil` for the live one.
    private var counted: BackgroundWork? {
        work.map { work in
            guard let counted = work as? BackgroundWork else {
                preconditionFailure("\(work) counts this queue's work, but is not AmbientTestClock's BackgroundWork")
            }
            return counted
        }
    }

    /// Dispatch's queues, with every submission made in its scope counted until it has run,
    /// so a test can wait for it: ``finished(timeout:fileID:filePath:line:column:)``.
    /// A fresh count each call: inject one per test.
    public static func tracked() -> BackgroundQueue {
        BackgroundQueue(work: BackgroundWork(testClock: nil))
    }

    /// One serial, deterministic order for all the work submitted in its scope, on every
    /// carrying queue: a piece of work runs once those submitted before it have, one at a
    /// time, on a thread of its own. `asyncAfter` deadlines are `testClock`'s: the work runs
    /// when the test advances the clock past them, in deadline order (the same deadline: in
    /// the order submitted), and `advance` returns once it has run. Work waiting for a
    /// deadline is not waited for by ``finished(timeout:fileID:filePath:line:column:)``;
    /// work queued behind others is, and is waited for by `advance` too.
    public static func driven(by testClock: TestClock) -> BackgroundQueue {
        BackgroundQueue(work: BackgroundWork(testClock: testClock))
    }

    /// How many submissions made in this queue's scopes have not finished (0 for
    /// `BackgroundQueue.live`, which counts nothing).
    public var unfinished: Int {
        counted?.unfinished ?? 0
    }

    /// Suspends until every submission made in this queue's scopes, and everything that work
    /// submitted, has finished: work on carrying queues and operation queues, group
    /// notifications, carrying threads, and main-queue work submitted through `MainQueue`.
    /// Returns at once for `BackgroundQueue.live`.
    ///
    /// Reports that the work made on other threads are the test's issues by the time it
    /// returns (under AmbientTesting's traits), so `withKnownIssue` around it sees them.
    ///
    /// It reports through `IssueReporter` (a test issue under AmbientTesting) and returns,
    /// naming each unfinished piece by the file and line that submitted it and what it waits
    /// for, when:
    /// - everything unfinished waits for the test clock (a thread asleep on it): at once,
    ///   since only the test can move that clock, with `advance(by:)` or `run()`;
    /// - `timeout` of real time passes first (work that never ends, or waits for this call).
    public func finished(
        timeout: Duration = .seconds(60),
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async {
        guard let work = counted else { return }
        let outcome = await work.finished(timeout: timeout)
        let reporter = IssueReporter.current
        reporter.pendingWork?.deliverHeldReports()
        guard let message = Self.report(outcome, of: work, timeout: timeout) else { return }
        reporter.report(
            message, at: IssueReporter.Location(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Blocks this thread until every submission made in this queue's scopes, and everything
    /// that work submitted, has finished: ``finished(timeout:fileID:filePath:line:column:)``
    /// for synchronous tests (an `XCTestCase` method that is not `async`); on the main thread
    /// it runs the main run loop while it waits, so main-queue work can run. Returns `false`,
    /// having reported why as ``finished(timeout:fileID:filePath:line:column:)`` does, if
    /// `timeout` of real time passed first or everything unfinished waits for the test clock.
    /// Never call it from the work it waits for.
    @discardableResult
    public func waitUntilFinished(
        timeout: Duration = .seconds(60),
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) -> Bool {
        guard let work = counted else { return true }
        let outcome = work.waitUntilFinished(timeout: timeout)
        guard let message = Self.report(outcome, of: work, timeout: timeout) else { return true }
        IssueReporter.current.report(
            message, at: IssueReporter.Location(fileID: fileID, filePath: filePath, line: line, column: column))
        return false
    }

    /// What a wait that stopped with `outcome` reports, or `nil` when the work finished.
    private static func report(
        _ outcome: BackgroundWork.Outcome, of work: BackgroundWork, timeout: Duration
    )
        -> String?
    {
        let pending = work.pendingWork().map { "\n- " + $0 }.joined()
        switch outcome {
        case .finished:
            return nil
        case .timedOut:
            return "BackgroundQueue.finished(): \(work.unfinished) submission(s) still unfinished after \(timeout) "
                + "of real time (work that never ends, or that waits for this call?):\(pending)"
        case .waitsForTheTestClock:
            return "BackgroundQueue.finished(): \(work.unfinished) submission(s) cannot finish until the test clock "
                + "moves, and only the test moves it: advance it (advance(by:), run()) before waiting for them:\(pending)"
        }
    }
}
