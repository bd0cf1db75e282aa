import Foundation

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
/// Wait for the code under test to be asleep (``waitForSleepers(_:timeout:)``) before
/// advancing: a task started just before runs concurrently with the test, and time moved
/// before it computes its deadline is time it never sees.
///
/// - Sleepers resume in deadline order; sleepers with the same deadline resume in the order
///   they went to sleep. While advancing, time stops at each deadline on the way, so a
///   woken task that sleeps again within the advanced span is woken in the same call.
/// - A sleeper whose task is cancelled is removed and its sleep throws `CancellationError`.
/// - Safe to use from many tasks at once.
///
/// After waking a sleeper, `advance` yields a few times so the woken task can run up to
/// its next suspension before time moves on; work that hops through many other tasks
/// before sleeping again may need an extra `await Task.yield()` in the test.
public final class TestClock: Sendable, CustomStringConvertible {
    private struct Sleeper {
        let id: UInt64
        let deadline: Duration
        let continuation: CheckedContinuation<Void, any Error>

        /// Earlier deadlines first; equal deadlines in the order they started sleeping.
        func wakesBefore(_ other: Sleeper) -> Bool { (deadline, id) < (other.deadline, other.id) }
    }

    /// A test waiting for enough sleepers.
    private struct Watcher {
        let id: UInt64
        let count: Int
        let continuation: CheckedContinuation<Void, any Error>
        /// Gives up after the timeout; set once the watcher is registered.
        var timer: Task<Void, Never>?

        /// Stops the timer and resumes the waiting test.
        func finish(_ result: Result<Void, any Error>) {
            timer?.cancel()
            continuation.resume(with: result)
        }
    }

    private struct State {
        var elapsed: Duration = .zero
        var sleepers: [Sleeper] = []
        var watchers: [Watcher] = []
        var nextID: UInt64 = 0

        /// Removes and returns the watchers that now have enough sleepers.
        mutating func satisfiedWatchers() -> [Watcher] {
            let count = sleepers.count
            let satisfied = watchers.filter { $0.count <= count }
            watchers.removeAll { $0.count <= count }
            return satisfied
        }

        mutating func removeWatcher(_ id: UInt64) -> Watcher? {
            guard let index = watchers.firstIndex(where: { $0.id == id }) else { return nil }
            return watchers.remove(at: index)
        }
    }

    /// Thrown by ``TestClock/waitForSleepers(_:timeout:)`` when the sleepers it waits for do
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
    private let state = Locked(State())

    /// A clock at `start` (default: 2001-01-01 00:00:00 UTC, the reference date) with no
    /// sleepers.
    public init(start: Date = Date(timeIntervalSinceReferenceDate: 0)) {
        self.start = start
    }

    /// The ambient ``Clock`` driven by this test clock: inject it.
    ///
    /// ```swift
    /// await withInjected(testClock.clock) { await scheduler.run() }
    /// ```
    public var clock: Clock {
        Clock(backend: TestClockBackend(testClock: self))
    }

    /// The current wall time: ``start`` plus the time advanced so far.
    public var now: Date {
        start.adding(elapsed)
    }

    /// The current monotonic instant (``Clock/Instant/offset`` is the time advanced so far).
    public var instant: Clock.Instant {
        Clock.Instant(offset: elapsed)
    }

    /// How many tasks are asleep on this clock.
    public var sleepers: Int {
        state.withLock { $0.sleepers.count }
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
    /// - Parameters:
    ///   - count: How many sleepers to wait for (default 1). Returns at once if that many
    ///     are already asleep.
    ///   - timeout: How long to wait, in *real* time, before giving up.
    /// - Throws: ``SleepersTimeout`` when fewer than `count` tasks are asleep after
    ///   `timeout`; `CancellationError` if the waiting task is cancelled.
    public func waitForSleepers(_ count: Int = 1, timeout: Duration = .seconds(10)) async throws {
        precondition(count >= 0, "TestClock.waitForSleepers(\(count)): the count cannot be negative")
        let id = takeID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let ready: Result<Void, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if state.sleepers.count >= count { return .success(()) }
                    state.watchers.append(Watcher(id: id, count: count, continuation: continuation))
                    return nil
                }
                if let ready { return continuation.resume(with: ready) }
                // Registered first, timed second: the timer can only find the watcher or,
                // if it was satisfied meanwhile, nothing. Real time, on purpose:
                // `Task.sleep` uses the continuous clock, never this one.
                let timer = Task { [weak self] in
                    try? await Task.sleep(for: timeout)
                    guard !Task.isCancelled, let self else { return }
                    let (expired, actual) = self.state.withLock { ($0.removeWatcher(id), $0.sleepers.count) }
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
    /// passes. A negative duration is a programming error and traps.
    public func advance(by duration: Duration) async {
        precondition(duration >= .zero, "TestClock.advance(by: \(duration)): time cannot go backwards")
        await advance(toOffset: elapsed + duration)
    }

    /// Moves time forward to `deadline` (no-op if it has passed), waking sleepers on the way.
    public func advance(to deadline: Clock.Instant) async {
        await advance(toOffset: deadline.offset)
    }

    /// Moves wall time forward to `date` (no-op if it has passed), waking sleepers on the way.
    public func advance(to date: Date) async {
        let seconds = date.timeIntervalSince(start)
        await advance(toOffset: .nanoseconds(Int64((seconds * 1e9).rounded())))
    }

    /// Advances to each pending deadline in turn until no task is asleep on this clock,
    /// including tasks that go back to sleep when woken. Traps after `maximumSteps` wake-ups
    /// (a task that sleeps forever in a loop would otherwise never let it return).
    public func run(maximumSteps: Int = 100_000) async {
        for _ in 0..<maximumSteps {
            guard let next = state.withLock({ $0.sleepers.map(\.deadline).min() }) else { return }
            await advance(toOffset: next)
        }
        preconditionFailure("TestClock.run(): sleepers still pending after \(maximumSteps) wake-ups")
    }

    /// A short description: the time and how many are sleeping.
    public var description: String {
        let (elapsed, count) = state.withLock { ($0.elapsed, $0.sleepers.count) }
        return "TestClock(now: \(start.adding(elapsed)), sleepers: \(count))"
    }

    // MARK: - Internals

    var elapsed: Duration {
        state.withLock { $0.elapsed }
    }

    private func advance(toOffset target: Duration) async {
        while true {
            let woken: Sleeper? = state.withLock { state in
                let due = state.sleepers.indices
                    .filter { state.sleepers[$0].deadline <= target }
                    .min { state.sleepers[$0].wakesBefore(state.sleepers[$1]) }
                guard let due else {
                    state.elapsed = max(state.elapsed, target)
                    return nil
                }
                let sleeper = state.sleepers.remove(at: due)
                state.elapsed = max(state.elapsed, sleeper.deadline)
                return sleeper
            }
            guard let woken else { break }
            woken.continuation.resume()
            await Self.letWokenTasksRun()
        }
        await Self.letWokenTasksRun()
    }

    /// Yields enough times for resumed tasks to reach their next suspension point.
    private static func letWokenTasksRun() async {
        for _ in 0..<32 {
            await Task.yield()
        }
    }

    /// A new id for a sleeper or a watcher.
    private func takeID() -> UInt64 {
        state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
    }

    func sleep(until deadline: Duration) async throws {
        let id = takeID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (immediate, satisfied) = state.withLock { state -> (Result<Void, any Error>?, [Watcher]) in
                    if Task.isCancelled { return (.failure(CancellationError()), []) }
                    if deadline <= state.elapsed { return (.success(()), []) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return (nil, state.satisfiedWatchers())
                }
                if let immediate { continuation.resume(with: immediate) }
                for watcher in satisfied { watcher.finish(.success(())) }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }
}

/// The ``Clock`` face of a ``TestClock``.
struct TestClockBackend: ClockBackend {
    let testClock: TestClock

    var now: Date { testClock.now }
    var elapsed: Duration { testClock.elapsed }

    func sleep(until offset: Duration) async throws {
        try await testClock.sleep(until: offset)
    }

    var description: String { "Clock(\(testClock))" }
}
