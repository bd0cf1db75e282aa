// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Dispatch
import Foundation

// Why: legacy code's background work is where an injected value gets lost, and a test of it
// waits with sleeps because nothing says when that work is done. The background queues
// carry the submitter's scope by themselves, and this value says, per scope, whether their
// work runs live, live and counted, or in one order a `TestClock` drives.

/// The ambient background queue: `DispatchQueue.global()` for code that reads it as
/// `BackgroundQueue.current`, and what every ``CarryingQueue`` does with the work submitted
/// in a scope — run it on Dispatch (``live``), run it on Dispatch and count it until it has
/// finished (``tracked()``), or run it in one deterministic order driven by a ``TestClock``
/// (``driven(by:)``).
///
/// Every submission carries the submitter's scope (its injected values), whatever the form:
///
/// ```swift
/// // was: DispatchQueue.global().async { self.refresh() }
/// BackgroundQueue.current.async { self.refresh() }     // refresh() sees the caller's values
/// ```
///
/// A test waits for the work its scope started, and for what that work sent on, without an
/// expectation or a sleep:
///
/// ```swift
/// @Test func theCacheIsWarmedInTheBackground() async {
///     let background = BackgroundQueue.tracked()
///     let defaults = Defaults.inMemory()
///     withInjected(background, defaults) { ImageCache.shared.warmUp() }   // submits work
///     await background.finished()                                        // all of it has run
///     #expect(defaults.integer(forKey: "warmed") == 3)
/// }
/// ```
///
/// On a queue ``driven(by:)`` a test clock, work runs one piece at a time in the order it was
/// submitted, across every carrying queue, and `asyncAfter` waits for the test clock:
/// `advance(by:)` runs the work due on the way and returns once it, and any work it submitted,
/// has run.
public struct BackgroundQueue: AmbientValue, CustomStringConvertible {
    /// The object that counts (and, driven, orders) the work, or `.live` (``LiveOr`` says why
    /// not an optional).
    @usableFromInline
    let state: LiveOr<BackgroundWork>

    @inlinable
    init(work: BackgroundWork?) {
        state = LiveOr(work)
    }

    /// Dispatch's queues, as they are: work runs when Dispatch runs it, nothing counts it.
    public static let live = BackgroundQueue(work: nil)

    /// The live form, built in place (inlinable: no lazy global's check).
    @inlinable
    public static var defaultValue: BackgroundQueue {
        BackgroundQueue(work: nil)
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

    /// `BackgroundQueue.live`, `.tracked()` or `.driven(by:)` with its clock.
    public var description: String {
        guard let work = state.object else { return "BackgroundQueue.live" }
        guard let testClock = work.testClock else { return "BackgroundQueue.tracked()" }
        return "BackgroundQueue.driven(by: \(testClock))"
    }

    /// How many submissions made in this queue's scopes have not finished (0 for ``live``,
    /// which counts nothing).
    public var unfinished: Int {
        state.object?.unfinished ?? 0
    }

    /// Suspends until every submission made in this queue's scopes, and everything that work
    /// submitted, has finished: work on carrying queues and operation queues, group
    /// notifications, carrying threads, and main-queue work submitted through ``MainQueue``.
    /// Returns at once for ``live``.
    ///
    /// Reports that the work made on other threads are the test's issues by the time it
    /// returns (under AmbientTesting's traits), so `withKnownIssue` around it sees them.
    ///
    /// It reports through ``IssueReporter`` (a test issue under AmbientTesting) and returns,
    /// naming each unfinished piece by the file and line that submitted it and what it waits
    /// for, when:
    /// - everything unfinished waits for the test clock (a thread asleep on it): at once,
    ///   since only the test can move that clock, with `advance(by:)` or `run()`;
    /// - `timeout` of real time passes first (work that never ends, or waits for this call).
    public func finished(
        timeout: Duration = .seconds(60),
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async {
        guard let work = state.object else { return }
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
        guard let work = state.object else { return true }
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

    // MARK: - DispatchQueue.global()'s surface

    /// `DispatchQueue.global(qos:).async(group:flags:execute:)`: `work` runs in the
    /// background, inside the caller's scope.
    public func async(
        qos: DispatchQoS.QoSClass = .default, group: DispatchGroup? = nil, flags: DispatchWorkItemFlags = [],
        fileID: StaticString = #fileID, line: UInt = #line,
        execute work: @escaping @Sendable () -> Void
    ) {
        CarryingQueue.global(qos: qos).async(group: group, flags: flags, fileID: fileID, line: line, execute: work)
    }

    /// `DispatchQueue.global(qos:).asyncAfter(deadline:execute:)`: `work` runs once
    /// `deadline` has come (on a driven queue: the test clock's), inside the caller's scope.
    public func asyncAfter(
        deadline: CarryingQueue.Deadline, qos: DispatchQoS.QoSClass = .default,
        fileID: StaticString = #fileID, line: UInt = #line,
        execute work: @escaping @Sendable () -> Void
    ) {
        CarryingQueue.global(qos: qos).asyncAfter(deadline: deadline, fileID: fileID, line: line, execute: work)
    }

    /// `DispatchQueue.concurrentPerform(iterations:execute:)`: `work` runs once per index,
    /// in parallel, each inside the caller's scope; on a driven queue, one index after the
    /// other in order, on this thread. Returns when all have.
    public func concurrentPerform(iterations: Int, execute work: (Int) -> Void) {
        CarryingQueue.concurrentPerform(iterations: iterations, execute: work)
    }
}
