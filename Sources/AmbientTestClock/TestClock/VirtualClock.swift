// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation

// Why: the test clock's time and sleepers, as a Swift.Clock that the ambient Clock wraps as it
// wraps any other.

/// A ``TestClock``'s time, as a `Swift.Clock`: the instants ``TestClockBackend`` reads, the
/// sleeps it delegates to, and the sleepers and watchers that ``TestClock`` moves and waits
/// for.
///
/// It is built the way a user's own clock would be: a `Swift.Clock` measured in `Duration`,
/// wrapped as the public `Clock.init(_:wallTimeAtStart:)` wraps one. What a user's clock
/// could not have comes through `Clock`'s seam: the job count, ``WokenWork``, which lets
/// ``TestClock`` know when the work it woke has settled, and the carrying thread's
/// blocking sleep.
final class VirtualClock: Swift.Clock, Sendable, CustomStringConvertible {
    typealias Instant = Clock.Instant

    struct Sleeper {
        let id: UInt64
        let deadline: Duration
        let continuation: CheckedContinuation<Void, any Error>
        /// The sleeping task's name, where the platform has task names.
        let taskName: String?

        /// Earlier deadlines first; equal deadlines in the order they started sleeping.
        func wakesBefore(_ other: Sleeper) -> Bool { (deadline, id) < (other.deadline, other.id) }
    }

    /// A test waiting for enough sleepers.
    struct Watcher {
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

    struct State {
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

    /// The wall time at offset zero (for ``description``).
    let start: Date
    let state = Locked(State())
    /// The work this clock's wake-ups caused, counted until it has settled.
    let woken = WokenWork()

    init(start: Date) {
        self.start = start
    }

    deinit {
        woken.forgetTasks()
    }

    // MARK: Swift.Clock

    var now: Instant {
        Instant(offset: elapsed)
    }

    var minimumResolution: Duration {
        .nanoseconds(1)
    }

    /// Suspends until time passes `deadline` (at once if it has). Runs on `woken`'s counting
    /// executor, so the slice after the wake-up is counted until it suspends again.
    /// The deadline is rounded to the nearest nanosecond, as every time on this clock is.
    func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await woken.counting { try await suspend(until: deadline.offset.roundedToNanoseconds) }
    }

    /// A `CarryingThread`'s blocking sleep on this clock: a sleeper like any other, that
    /// `cancel()` wakes.
    ///
    /// The sleeping task is started as work this clock causes, so a settle waits until it is
    /// asleep. A thread that holds this clock (started under a `BackgroundQueue` this clock
    /// drives) lets it go only then, and the sleeper takes the hold back for the thread
    /// before it signals it: from its wake-up until it sleeps again or returns, the thread's
    /// work is what an `advance` waits for. Its count says it is asleep meanwhile, so a
    /// `finished()` waiting for it says at once that only the test clock can move it on.
    func blockingSleep(until deadline: Instant, on thread: CarryingThread.Running) {
        let holds = (thread.ticket?.work as? BackgroundWork)?.testClock?.clock.jobCounter === woken
        let done = DispatchSemaphore(value: 0)
        let sleeper = woken.causing {
            Task.detached {
                try? await self.sleep(until: deadline, tolerance: nil)
                if holds { self.woken.holdQueued() }
                thread.woke()
                done.signal()
            }
        }
        let wake: @Sendable () -> Void = { sleeper.cancel() }
        thread.sleeping(asleep: .asleep(deadline), wakingWith: wake) {
            if holds { woken.releaseHeld() }
            done.wait()
            if holds { woken.beginHeld() }
        }
    }

    /// `TestClock(now: 2001-01-01 00:00:05 +0000, sleepers: 1)`.
    var description: String {
        let (elapsed, count) = state.withLock { ($0.elapsed, $0.sleepers.count) }
        return "TestClock(now: \(start.addingTimeInterval(elapsed.timeInterval)), sleepers: \(count))"
    }

    // MARK: For TestClock

    var elapsed: Duration {
        state.withLock { $0.elapsed }
    }

    var sleeperCount: Int {
        state.withLock { $0.sleepers.count }
    }

    /// A new id for a sleeper or a watcher.
    func takeID() -> UInt64 {
        state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
    }

    /// Removes the next sleeper due by `target` (moving time to its deadline), or, when none
    /// is due, moves time to `target` and returns `nil`. `target` is rounded to the nearest
    /// nanosecond, as every deadline is: durations of `Double` seconds that add up to a
    /// deadline reach it.
    func takeNextDue(by target: Duration) -> Sleeper? {
        let target = target.roundedToNanoseconds
        return state.withLock { state in
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
    }

    /// The earliest pending deadline, if anyone is asleep.
    var nextDeadline: Duration? {
        state.withLock { $0.sleepers.map(\.deadline).min() }
    }

    /// The sleepers still waiting, in wake-up order, described for a report.
    func pendingSleepers() -> String {
        state.withLock { state in
            state.sleepers.sorted { $0.wakesBefore($1) }.map { sleeper in
                let name = sleeper.taskName.map { "task \"\($0)\"" } ?? "a task"
                return "\(name) asleep until \(Instant(offset: sleeper.deadline))"
            }.joined(separator: ", ")
        }
    }

    /// Registers a sleeper and suspends until it is woken or cancelled.
    private func suspend(until deadline: Duration) async throws {
        let id = takeID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if let immediate = addSleeper(id: id, until: deadline, continuation: continuation) {
                    continuation.resume(with: immediate)
                }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Puts a sleeper to sleep, and lets the watchers it satisfies go; or, if it need not
    /// sleep, returns at once what it should do: `CancellationError` when the task is
    /// cancelled (checked under the lock, so a cancellation handler that runs next finds
    /// the sleeper), success when time has already passed `deadline`. `nil`: asleep.
    private func addSleeper(
        id: UInt64,
        until deadline: Duration,
        continuation: CheckedContinuation<Void, any Error>
    ) -> Result<Void, any Error>? {
        let (immediate, satisfied) = state.withLock { state -> (Result<Void, any Error>?, [Watcher]) in
            if Task.isCancelled { return (.failure(CancellationError()), []) }
            if deadline <= state.elapsed { return (.success(()), []) }
            state.sleepers.append(
                Sleeper(id: id, deadline: deadline, continuation: continuation, taskName: Self.currentTaskName))
            return (nil, state.satisfiedWatchers())
        }
        for watcher in satisfied { watcher.finish(.success(())) }
        return immediate
    }

    /// The running task's name (Swift 6.2's `Task.name`), where the platform has it.
    private static var currentTaskName: String? {
        #if compiler(>=6.2)
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            return Task.name
        }
        #endif
        return nil
    }
}
