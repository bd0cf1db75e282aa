// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation

// Why: time-dependent code is tested by moving time, not by waiting: a clock only the test moves.

/// A manual clock for tests: time moves only when the test moves it, and tasks sleeping on
/// it resume exactly when time passes their deadline.
///
/// ```swift
/// let testClock = TestClock()
/// let reminder = Task {
///     try await withInjected(testClock.clock) {
///         try await Clock.current.sleep(for: .seconds(60))
///         return "ring"
///     }
/// }
/// try await testClock.waitForSleepers()         // the task is asleep: time may move
/// await testClock.advance(by: .seconds(59))     // not yet
/// #expect(testClock.sleepers == 1)
/// await testClock.advance(by: .seconds(1))      // now
/// #expect(try await reminder.value == "ring")
/// ```
///
/// ## Time moves only when woken work has settled
/// ``advance(by:isolation:fileID:filePath:line:column:)``, ``advance(to:isolation:fileID:filePath:line:column:)-(Clock.Instant,_,_,_,_,_)``
/// and ``run(maximumSteps:isolation:fileID:filePath:line:column:)`` stop at each deadline on the way,
/// wake its sleepers, and move on only once every task they woke has run until it is
/// suspended again (asleep on this clock, or awaiting anything else) or has finished. A
/// woken task that parses a response for 10 ms before sleeping again, on two busy cores,
/// is woken again in the same call, every time, with nothing to switch on.
///
/// The clock knows because it counts the work it causes: the task it resumes, the child
/// tasks, `Task { }`s, actors and tasks that work starts or wakes, through the Swift
/// runtime's global-executor hook, installed when the first `TestClock` is made. Work
/// the clock did not wake runs as it would without the clock, so parallel tests do not slow each other down.
///
/// Called on the main actor (a `@MainActor` test, whose `Task { }`s run there too), the
/// clock also follows the main actor's work: what the main actor sends to the global
/// executor while `advance`, `run` or ``waitForSleepers(_:timeout:isolation:)`` waits is
/// counted, each task it counted stays counted wherever its later jobs are enqueued, and
/// each settle ends with a round trip through the main queue. The `isolation` parameter,
/// filled in by `#isolation`, tells it where it was called. Between starting its tasks and
/// moving time, such a test awaits only the clock: a task that leaves the main actor while
/// the test awaits something else is not seen, and may still be on its way when time moves.
/// A hop off the main actor is counted by one clock waiting there: while several
/// `@MainActor` tests of a parallel run wait on their own clocks at the same instant, it may
/// be another test's, which waits for the task instead, and this test's clock may move time
/// while the task is still on its way (`swift test --no-parallel` rules that out).
///
/// Called on another actor (a test isolated to a global actor, or to an actor of its own),
/// the call counts the actor's drain that runs the tasks the test started there, from the
/// moment the test leaves the actor to wait until it is back: a task that leaves the actor
/// for a nonisolated function in place, handed the actor's thread, runs on inside that
/// counted drain. Each settle also ends with a round trip through the actor, behind what
/// those tasks have queued on it. As on the main actor, such a test awaits only the clock
/// between starting its tasks and moving time.
///
/// Work that leaves the global executor is counted as *suspended*, so time may move while
/// it runs: a `DispatchQueue`, `Thread` or `OperationQueue` callback, the main actor
/// (`@MainActor` code) when the clock is moved from elsewhere, a custom or task executor,
/// and `Task.sleep` on a real clock. When the code under test hands off to one of those and
/// then sleeps on this clock, wait for that sleep with ``waitForSleepers(_:timeout:isolation:)``
/// before advancing again.
///
/// If woken work does not settle within `settleTimeout` of real time (a task spinning in
/// a loop, a deadlock), the call reports it through `IssueReporter` — a test issue under
/// AmbientTesting's traits, naming the pending sleepers — and carries on without waiting;
/// it never traps and never hangs.
///
/// Code started by the test just before it advances has not been woken by the clock: wait
/// for it to be asleep (``waitForSleepers(_:timeout:isolation:)``) first, as above.
///
/// - Sleepers resume in deadline order; sleepers with the same deadline resume in the order
///   they went to sleep.
/// - A sleeper whose task is cancelled is removed and its sleep throws `CancellationError`.
/// - Safe to use from many tasks at once.
public final class TestClock: Sendable, CustomStringConvertible {
    /// Thrown by ``TestClock/waitForSleepers(_:timeout:isolation:)`` when the sleepers it waits for do
    /// not arrive in time — usually because the code under test never reached its sleep, or
    /// sleeps on another clock (was ``TestClock/clock`` injected where it runs?).
    public struct SleepersTimeout: Error, CustomStringConvertible {
        /// How many sleepers the test waited for.
        public let expected: Int
        /// How many were asleep when it gave up.
        public let actual: Int
        /// How long it waited, in real time.
        public let timeout: Duration

        /// The error, stated in full.
        public var description: String {
            "TestClock.waitForSleepers(\(expected)): only \(actual) asleep after \(timeout) of real time. "
                + "Is the code under test running, and does it sleep on Clock.current with this TestClock's clock injected?"
        }
    }

    /// The wall time at which this clock started.
    public let start: Date
    /// How long, in real time, a call that moves time waits for the work it woke to
    /// settle before it reports the work as stuck and carries on.
    public let settleTimeout: Duration
    /// The clock's time and sleepers: a `Swift.Clock` that ``clock`` wraps.
    private let time: VirtualClock

    /// The ambient `Clock` driven by this test clock: inject it.
    ///
    /// ```swift
    /// await withInjected(testClock.clock) { await scheduler.run() }
    /// ```
    ///
    /// It wraps this test clock's `Swift.Clock` as `Clock(_:wallTimeAtStart:)` wraps a clock
    /// of your own: its instants are this clock's ``instant``s. It adds what only a test
    /// clock has: the work it wakes is counted, and a blocking `sleep` on it is a sleeper
    /// like any other.
    public let clock: Clock

    /// A clock at `start` (default: 2001-01-01 00:00:00 UTC, the reference date) with no
    /// sleepers.
    ///
    /// - Parameters:
    ///   - start: The wall time at offset zero.
    ///   - settleTimeout: How long, in real time, to wait for woken work to settle before
    ///     reporting it (default 10 seconds). Time the work spends only waiting for a
    ///     thread of a saturated pool is not counted, up to ten times this in all.
    public init(start: Date = Date(timeIntervalSinceReferenceDate: 0), settleTimeout: Duration = .seconds(10)) {
        precondition(settleTimeout > .zero, "TestClock(settleTimeout: \(settleTimeout)): the timeout must be positive")
        self.start = start
        self.settleTimeout = settleTimeout
        self.time = VirtualClock(start: start)
        self.clock = Clock(backend: TestClockBackend(time, wallTimeAtStart: start))
    }

    /// The current wall time: ``start`` plus the time advanced so far.
    public var now: Date {
        start.addingTimeInterval(time.elapsed.timeInterval)
    }

    /// The current monotonic instant (`Clock.Instant.offset` is the time advanced so far).
    public var instant: Clock.Instant {
        time.now
    }

    /// How many tasks are asleep on this clock.
    public var sleepers: Int {
        time.sleeperCount
    }

    /// Suspends until at least `count` tasks are asleep on this clock, so the test knows the
    /// code under test has reached its sleep before it moves time.
    ///
    /// ```swift
    /// let job = Task { try await withInjected(testClock.clock) { try await poller.pollOnce() } }
    /// try await testClock.waitForSleepers()
    /// await testClock.advance(by: .seconds(30))
    /// ```
    ///
    /// Called on the main actor (a `@MainActor` test), it follows the main actor's work while
    /// it waits, as ``advance(by:isolation:fileID:filePath:line:column:)`` does: the test's
    /// own `Task { }`s, started there, are counted as they leave the main actor, so the
    /// `advance` that follows waits until each has suspended before it moves time.
    ///
    /// - Parameters:
    ///   - count: How many sleepers to wait for (default 1). Returns at once if that many
    ///     are already asleep.
    ///   - timeout: How long to wait, in *real* time, before giving up.
    ///   - isolation: The caller's actor; leave the default.
    /// - Throws: ``SleepersTimeout`` when fewer than `count` tasks are asleep after
    ///   `timeout`; `CancellationError` if the waiting task is cancelled.
    public func waitForSleepers(
        _ count: Int = 1,
        timeout: Duration = .seconds(10),
        isolation: isolated (any Actor)? = #isolation
    ) async throws {
        precondition(count >= 0, "TestClock.waitForSleepers(\(count)): the count cannot be negative")
        // A `@MainActor` test's own `Task { }`s leave the main actor while it waits here,
        // where no hook sees their first hop: followed from now, so the advance after this
        // waits for such a task to suspend before it moves time.
        try await fromCaller(isolation) { try await waitUntilAsleep(count, timeout: timeout) }
    }

    /// ``waitForSleepers(_:timeout:isolation:)``'s wait.
    private func waitUntilAsleep(_ count: Int, timeout: Duration) async throws {
        let id = time.takeID()
        let state = time.state
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let ready: Result<Void, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if state.sleepers.count >= count { return .success(()) }
                    state.watchers.append(VirtualClock.Watcher(id: id, count: count, continuation: continuation))
                    return nil
                }
                if let ready { return continuation.resume(with: ready) }
                // Registered first, timed second: the timer can only find the watcher or,
                // if it was satisfied meanwhile, nothing. Real time, on purpose:
                // `Task.sleep` uses the continuous clock, never this one.
                let timer = Task { [weak state] in
                    try? await Task.sleep(for: timeout)
                    guard !Task.isCancelled, let state else { return }
                    let (expired, actual) = state.withLock { ($0.removeWatcher(id), $0.sleepers.count) }
                    expired?.finish(.failure(SleepersTimeout(expected: count, actual: actual, timeout: timeout)))
                }
                let waiting = state.withLock { state -> Bool in
                    guard let index = state.watchers.firstIndex(where: { $0.id == id }) else { return false }
                    state.watchers[index].timer = timer
                    return true
                }
                if !waiting { timer.cancel() }
            }
        } onCancel: {
            let cancelled = state.withLock { $0.removeWatcher(id) }
            cancelled?.finish(.failure(CancellationError()))
        }
    }

    /// Moves time forward by `duration`, waking, in order, every sleeper whose deadline it
    /// passes, and returns once the work it woke has settled (see the type's discussion).
    /// A negative duration is a programming error and traps.
    ///
    /// `isolation` is the caller's actor (on the main actor, the clock follows the main
    /// actor's work too: see the type's discussion); the location parameters name the test's
    /// call in a report. Leave their defaults.
    public func advance(
        by duration: Duration,
        isolation: isolated (any Actor)? = #isolation,
        fileID: String = #fileID,
        filePath: String = #filePath,
        line: Int = #line,
        column: Int = #column
    ) async {
        precondition(duration >= .zero, "TestClock.advance(by: \(duration)): time cannot go backwards")
        let location = IssueReporter.Location(fileID: fileID, filePath: filePath, line: line, column: column)
        await fromCaller(isolation) {
            await advance(toOffset: time.elapsed + duration, caller: "advance(by: \(duration))", at: location)
        }
    }

    /// Moves time forward to `deadline` (no-op if it has passed), waking sleepers on the way
    /// and letting the work they wake settle.
    ///
    /// `isolation` is the caller's actor (on the main actor, the clock follows the main
    /// actor's work too); leave it and the location parameters to their defaults.
    public func advance(
        to deadline: Clock.Instant,
        isolation: isolated (any Actor)? = #isolation,
        fileID: String = #fileID,
        filePath: String = #filePath,
        line: Int = #line,
        column: Int = #column
    ) async {
        let location = IssueReporter.Location(fileID: fileID, filePath: filePath, line: line, column: column)
        await fromCaller(isolation) {
            await advance(toOffset: deadline.offset, caller: "advance(to: \(deadline))", at: location)
        }
    }

    /// Moves wall time forward to `date` (no-op if it has passed), waking sleepers on the
    /// way and letting the work they wake settle.
    ///
    /// `isolation` is the caller's actor (on the main actor, the clock follows the main
    /// actor's work too); leave it and the location parameters to their defaults.
    public func advance(
        to date: Date,
        isolation: isolated (any Actor)? = #isolation,
        fileID: String = #fileID,
        filePath: String = #filePath,
        line: Int = #line,
        column: Int = #column
    ) async {
        let seconds = date.timeIntervalSince(start)
        let location = IssueReporter.Location(fileID: fileID, filePath: filePath, line: line, column: column)
        let offset = Duration.nanoseconds(Int64((seconds * 1e9).rounded()))
        await fromCaller(isolation) {
            await advance(toOffset: offset, caller: "advance(to: \(date))", at: location)
        }
    }

    /// Advances to each pending deadline in turn, letting woken work settle at each, until
    /// no task is asleep on this clock, including tasks that go back to sleep when woken.
    ///
    /// A task that sleeps in a loop forever would never let it return: after
    /// `maximumSteps` deadlines it reports the sleepers still pending through
    /// `IssueReporter` (a test issue under AmbientTesting's traits) and returns. It never
    /// traps.
    ///
    /// `isolation` is the caller's actor (on the main actor, the clock follows the main
    /// actor's work too); leave it and the location parameters to their defaults.
    public func run(
        maximumSteps: Int = 100_000,
        isolation: isolated (any Actor)? = #isolation,
        fileID: String = #fileID,
        filePath: String = #filePath,
        line: Int = #line,
        column: Int = #column
    ) async {
        precondition(maximumSteps >= 0, "TestClock.run(maximumSteps: \(maximumSteps)): the limit cannot be negative")
        let location = IssueReporter.Location(fileID: fileID, filePath: filePath, line: line, column: column)
        await fromCaller(isolation) { await runToTheEnd(maximumSteps: maximumSteps, at: location) }
    }

    /// ``run(maximumSteps:isolation:fileID:filePath:line:column:)``'s work.
    private func runToTheEnd(maximumSteps: Int, at location: IssueReporter.Location) async {
        let caller = "run(maximumSteps: \(maximumSteps))"
        var settling = await settle(caller, at: location)
        for _ in 0..<maximumSteps {
            guard let next = time.nextDeadline else { return }
            settling = await advance(toOffset: next, caller: caller, at: location, settling: settling)
        }
        let pending = time.pendingSleepers()
        guard !pending.isEmpty else { return }
        IssueReporter.current.report(
            "TestClock.\(caller): sleepers still pending after \(maximumSteps) deadlines, so run() stopped "
                + "there (a task that sleeps in a loop forever never lets it finish; advance(by:) a fixed span "
                + "instead). Pending: \(pending).",
            at: location
        )
    }

    /// Runs `body` as work this clock is waiting for: while it runs, ``advance(by:isolation:fileID:filePath:line:column:)``
    /// and ``run(maximumSteps:isolation:fileID:filePath:line:column:)`` do not move time on, exactly
    /// as for a task the clock woke. For work the clock cannot follow by itself — handed to
    /// the main actor, a `DispatchQueue`, a thread — that a woken task waits for:
    ///
    /// ```swift
    /// try await Clock.current.sleep(for: .seconds(5))      // woken by advance(by: 5 s)
    /// await testClock.counting {
    ///     await MainActor.run { viewModel.refresh() }      // advance returns after this
    /// }
    /// ```
    public func counting<R>(_ body: () async throws -> R) async rethrows -> R {
        try await time.woken.holding(body)
    }

    /// Runs `body` as work this clock woke, on this thread: the tasks it starts or resumes
    /// on the global executor (`Task { }`, a child task, a continuation) are counted, and
    /// ``advance(by:isolation:fileID:filePath:line:column:)`` waits for them to settle. For work that
    /// runs where the clock cannot see — on the main actor, a queue — and starts tasks:
    ///
    /// ```swift
    /// await MainActor.run {
    ///     testClock.counting { viewModel.reload() }        // the task reload() starts is counted
    /// }
    /// ```
    public func counting<R>(_ body: () throws -> R) rethrows -> R {
        try time.woken.causing(body)
    }

    /// Holds `advance` and `run` from moving time on until the matching `releaseSettling()`,
    /// as work the clock woke does: for work handed to a thread the clock cannot see. A
    /// driven `BackgroundQueue` holds it for each piece of work it has queued and not yet
    /// run, and the driven queues (main and background) from a sleeper's wake-up until the
    /// work due has run on their thread. Until `beginSettling()` the work counts as waiting
    /// for a thread (that time does not run down the settle timeout, within its extension).
    func holdSettling() {
        time.woken.holdQueued()
    }

    /// The work held by `holdSettling()` has started on its thread.
    func beginSettling() {
        time.woken.beginHeld()
    }

    /// Ends one `holdSettling()`, after its `beginSettling()`.
    func releaseSettling() {
        time.woken.releaseHeld()
    }

    /// Runs `work` on `queue`, a thread the clock cannot see, holding `advance` and `run`
    /// from now until it has run: `holdSettling()` here, `beginSettling()` and
    /// `releaseSettling()` around it there.
    func settling(on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void) {
        time.woken.hold(on: queue, work)
    }

    /// The instant `delay` from now, rounded to the nearest nanosecond as every deadline on
    /// this clock is: where the driven queues keep work due at that time.
    func deadline(after delay: Duration) -> Clock.Instant {
        Clock.Instant(offset: (time.elapsed + delay).roundedToNanoseconds)
    }

    /// A short description: the time and how many are sleeping.
    public var description: String {
        time.description
    }

    // MARK: - Internals

    /// Runs `body`, this clock's moving of time or its wait for sleepers, for a caller
    /// isolated to `isolation`. A caller on the main actor (a `@MainActor` test) may have
    /// started tasks there that have not run yet, and no hook sees the main actor's jobs:
    /// from here, while still on the main actor, until `body` returns or throws, what the
    /// main actor sends to the global executor is counted as this clock's work, and settling
    /// goes through the main queue.
    @discardableResult
    private func fromCaller<R>(_ isolation: isolated (any Actor)?, _ body: () async throws -> R) async rethrows -> R {
        let onMain = isolation is MainActor
        if onMain { time.woken.waitForMain() }
        defer {
            if onMain { time.woken.doneWaitingForMain() }
            // What the work this call waited for reported elsewhere is the test's by now.
            IssueReporter.current.pendingWork?.deliverHeldReports()
        }
        // Another actor: its queue is settled through (see `WokenWork.settle`), and the
        // drain that runs it once this task leaves the actor is counted, from the moment it
        // leaves until it is back.
        guard let isolation, !onMain else { return try await body() }
        let leaving = time.woken.leavingActor()
        defer { leaving.end() }
        return try await Self.$callerActor.withValue(isolation) { try await body() }
    }

    /// The actor, other than the main actor, that the call settling now was made on.
    @TaskLocal private static var callerActor: (any Actor)?

    /// Wakes each sleeper due by `target` in order, settling after each; returns whether
    /// settling still works for this call (`false` once it timed out).
    @discardableResult
    private func advance(
        toOffset target: Duration,
        caller: String,
        at location: IssueReporter.Location,
        settling: Bool = true
    ) async -> Bool {
        // Work woken earlier (by another call that gave up on it) settles first.
        var settling = settling
        if settling { settling = await settle(caller, at: location) }
        while true {
            guard let next = time.takeNextDue(by: target) else { return settling }
            time.woken.causing { next.continuation.resume() }
            if settling {
                settling = await settle(caller, at: location)
            } else {
                await Self.yieldSeveralTimes()
            }
        }
    }

    /// Waits until the work this clock woke is suspended or done; on time-out, reports it
    /// and returns `false` (the caller stops waiting for the rest of its call).
    private func settle(_ caller: String, at location: IssueReporter.Location) async -> Bool {
        guard WokenWork.isAvailable else {
            // A runtime without the hook: the best this can do is give woken work a chance.
            await Self.yieldSeveralTimes()
            return true
        }
        if await time.woken.settle(timeout: settleTimeout, through: Self.callerActor) { return true }
        let pending = time.pendingSleepers()
        IssueReporter.current.report(
            "TestClock.\(caller): the work woken at \(instant) was still running after \(settleTimeout) of real "
                + "time (\(time.woken.runningJobs) job(s): a task spinning in a loop, or waiting for something that "
                + "waits for this call?), so this call moved time on without waiting for it. "
                + "Pending sleepers: \(pending.isEmpty ? "none" : pending).",
            at: location
        )
        return false
    }

    /// The fallback where settling is unavailable or has timed out.
    private static func yieldSeveralTimes() async {
        for _ in 0..<32 {
            await Task.yield()
        }
    }
}
