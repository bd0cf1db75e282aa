// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Dispatch
import Foundation

// Why: advancing a test clock must not move time again before the work it woke has run.

// How a TestClock knows that the work it woke has settled
// =======================================================
//
// `advance` and `run` may move time again only once every task they woke has run until it
// is suspended again (on this clock or on anything else) or has finished. Yielding a few
// times and hoping is not enough: a woken task that parses a response for 10 ms, or that
// shares two busy cores with a parallel test run, is still running after any number of
// yields.
//
// So the clock counts the work it causes. The Swift runtime sends every job bound for the
// global concurrent executor (a task resumed, a child task started, `Task { }`, an idle
// default actor given work, `Task.yield()`) through `swift_task_enqueueGlobal`, which
// calls `swift_task_enqueueGlobal_hook` when one is installed. Ambient installs one the
// first time a `TestClock` is made (and puts back before every `advance`, `run` and settle
// if another tool replaced it). For each job it asks one question: is this job this clock's
// work? That is the case in exactly three places:
//
// 1. while a `TestClock` resumes a sleeper's continuation (the runtime enqueues the woken
//    task from inside `resume()`),
// 2. while a job that was itself counted runs (everything it starts or resumes: child
//    tasks, `Task { }`, tasks it wakes, actors it hands work to, its own next slice), and
// 3. while code runs inside a scope where the `TestClock`'s clock is injected
//    (`withInjected(testClock.clock)`, a trait): the tasks the test starts there and what
//    it resumes. So a consumer the test started before `advance` has reached its channel
//    by the time time moves: `advance` settles first.
//
// Such a job is counted, then run on Dispatch's global queue by `swift_job_run` — what the
// default executor does, so parallelism is kept — with this thread marked as working for
// the same `WokenWork`, and uncounted when `swift_job_run` returns, that is, when that
// slice of the task has suspended or finished. Every other job goes to the runtime's
// own executor untouched: nothing changes for work the clock did not wake, and parallel
// tests with clocks of their own count only their own work.
//
// Two refinements make the count exact. Since Swift 6.2, `Task.yield()` and similar
// re-enqueues go to the *current* executor rather than through the hook, so counted jobs
// run on a small counting `TaskExecutor` that sends such jobs back to be counted. And a
// clock may resume a sleeper before that task has finished suspending (the continuation
// is registered first); the task would then carry on in its old, uncounted slice. So a
// sleep on the clock runs under `withTaskExecutorPreference(countingExecutor)`: the task
// hops onto a counted job before it registers, and whoever resumes it, from any thread,
// resumes it onto the counting executor.
//
// The count reaching zero is the moment everything the clock woke is suspended or done,
// and that is when `settle()` resumes. A job counted before it runs, uncounted after, and
// counted children counted *during* their parent's run, so the count can only reach
// zero when nothing caused by the wake-up is runnable: no timing, no yields.
//
// The settle timeout guards against work that runs and never settles. A job counted but
// not yet picked up by a thread has not started to run: in a large parallel test run on
// two cores, each hop of the woken work can wait seconds behind other tests' jobs in
// Dispatch's pool (main-queue tests under ThreadSanitizer do). So the
// time during which this object's jobs are all queued and none is running is kept apart
// ("starved"), and a waiter whose timer runs out waits that much longer, up to ten times its
// timeout in all. Work spinning on a thread is running, and is still reported on time.
//
// The main actor's jobs never pass a hook (the runtime's main-executor hook is not called
// on this toolchain), yet a `@MainActor` test's `Task { }`s run there. Three things follow
// them when `advance`, `run` or `waitForSleepers` is called on the main actor (the last so
// that a task the test just started, leaving the main actor while the test waits for
// sleepers, is counted until it suspends): (1) every task a job was
// counted for is remembered by its ID, so its later jobs are counted wherever they are
// enqueued (a main-actor task's hop to the global executor is enqueued from the main queue,
// where neither the thread's mark nor its scope can be read: the task is being switched
// out); (2) while such a call runs, a job the main actor sends to the global executor that
// nothing else names is counted (a task started on the main actor hops off it before any
// of its jobs was counted); (3) once any counted job came from the main queue, each settle
// ends with a marker through the main queue, the main actor's one first-in-first-out
// queue, repeated until a round trip starts no new counted work (the settling task's own
// jobs aside): what woken work sent to the main actor has then run.
//
// A caller isolated to another actor (a global actor, or one of the test's own) holds that
// actor while it calls, and the tasks it started there wait in the actor's queue, where no
// hook sees them. Two things follow them. (1) The caller leaves the actor to wait: a task
// leaving a default actor with jobs still queued there gives the actor up and schedules a
// drain for them on the global executor, through the hook, as the current task. The caller
// is registered as leaving for this clock from just before it leaves until it is back, so
// that drain is counted, and with it everything it runs: a task that leaves the actor in
// place (handed the drain's thread for a nonisolated call) runs on inside it, counted.
// This comes before the thread's mark: on an actor shared by tests, the caller may itself
// run inside a drain another clock counted. (2) Each settle ends with a marker through the
// actor at a low priority, repeated the same way; the marker registers itself the same way,
// so the drain it schedules as it leaves is counted too.
//
// What escapes (documented in TestClock and the time article): work that waits on
// something outside the global executor and resumes from there is no longer counted once
// it suspends: the main actor when the clock is moved from elsewhere, a custom or task
// executor, a `DispatchQueue` or `Thread` that resumes a continuation, and `Task.sleep` on
// a real clock. That work counts as "suspended on something else", so the clock may move on
// while it runs.

/// The work a ``TestClock`` woke, counted until all of it is suspended again.
final class WokenWork: JobCounter, @unchecked Sendable {
    // @unchecked: `state` is a `Locked`; `executor` is set once, in `init`.

    // @unchecked: a `DispatchWorkItem` may be cancelled from any thread (Dispatch documents
    // it thread-safe), but swift-corelibs-libdispatch does not mark it `Sendable`.
    private struct Waiter: @unchecked Sendable {
        let id: UInt64
        /// Resumed with `started` as it was when the work settled, or `nil` on time-out.
        let continuation: CheckedContinuation<UInt64?, Never>
        var timer: DispatchWorkItem
        /// The starved time when it started waiting, plus what its timeout was already
        /// extended by.
        var starvedCredited: Duration
        /// How much longer than its timeout it may still be extended.
        var extensionLeft: Duration
    }

    private struct State {
        /// Jobs enqueued on this object's account and not yet finished running.
        var running = 0
        /// Jobs and holds counted so far, the settling tasks' own jobs aside: a settle that
        /// sees it move knows work started.
        var started: UInt64 = 0
        /// The tasks settling now (by ID, with how many settles each runs).
        var settlers: [UInt64: Int] = [:]
        /// Whether one of this object's jobs was enqueued by a main-actor job: its tasks run
        /// on the main actor, whose jobs no hook sees.
        var usesMain = false
        var waiters: [Waiter] = []
        var nextID: UInt64 = 0
        /// Of `running`: jobs enqueued that no thread has picked up yet, and jobs a thread
        /// is running now.
        var queued = 0
        var executing = 0
        /// Time during which this object's work had jobs queued and none running: it was
        /// waiting for a thread of a saturated pool (a large parallel test run on few
        /// cores), not running. Not counted against a waiter's timeout.
        var starvedTotal = Duration.zero
        var starvedSince: ContinuousClock.Instant?

        var isStarved: Bool { queued > 0 && executing == 0 }

        /// Starved time so far, the current stretch included.
        func starved(at now: ContinuousClock.Instant) -> Duration {
            starvedTotal + (starvedSince.map { now - $0 } ?? .zero)
        }

        /// Runs `change` and keeps the starved time up to date across it.
        mutating func update(_ change: (inout State) -> Void) {
            let wasStarved = isStarved
            change(&self)
            guard wasStarved != isStarved else { return }
            let now = ContinuousClock.now
            if let since = starvedSince {
                starvedTotal += now - since
                starvedSince = nil
            } else {
                starvedSince = now
            }
        }
    }

    private let state = Locked(State())
    /// The task executor counted jobs run on (a `CountingExecutor` where the platform has
    /// task executors): since Swift 6.2, `Task.yield()` and other re-enqueues go to the
    /// *current* executor, and the default one would skip the hook.
    private var executor: AnyObject?

    init() {
        Self.ensureHook()
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            executor = CountingExecutor(work: self)
        }
    }

    /// Jobs caused by this object's wake-ups that are queued or running now.
    var runningJobs: Int {
        state.withLock { $0.running }
    }

    /// Runs `body` (which resumes a continuation) with this thread working for `self`, so
    /// the task it resumes is counted.
    func causing<R>(_ body: () throws -> R) rethrows -> R {
        let previous = Self.current
        Self.current = Unmanaged.passUnretained(self)
        defer { Self.current = previous }
        return try body()
    }

    /// Runs `body` (a sleep on the clock) with this object's executor as the task's
    /// executor preference: the task hops onto a counted job first, and whoever resumes
    /// it, from whatever thread, enqueues it on that executor, so its slice after the
    /// wake-up is counted until it suspends again. (Tagging the resuming thread alone
    /// would miss the race in which the resume lands before the sleeper has finished
    /// suspending, and the sleeper carries on in an uncounted slice.)
    func counting<R>(_ body: () async throws -> R) async rethrows -> R {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *),
            let executor = executor as? CountingExecutor
        {
            return try await withTaskExecutorPreference(executor) { try await body() }
        }
        return try await body()
    }

    /// Counts `body` as one running job until it returns: work handed to an executor the
    /// hook cannot see (the main actor, a queue) holds `settle` until it is back.
    func holding<R>(_ body: () async throws -> R) async rethrows -> R {
        state.withLock {
            $0.running += 1
            $0.started += 1
        }
        defer { finishedOne() }
        return try await body()
    }

    /// Counts one piece of work handed to a thread the hook cannot see (the main queue, a
    /// driven `BackgroundQueue`'s) from the moment it is handed over: queued, as a job no
    /// thread has picked up is, until ``beginHeld()``; running from there to
    /// ``releaseHeld()``.
    func holdQueued() {
        state.withLock { state in
            state.update {
                $0.running += 1
                $0.queued += 1
            }
            state.started += 1
        }
    }

    /// The work ``holdQueued()`` counted has started on its thread.
    func beginHeld() {
        state.withLock { state in
            state.update {
                $0.queued -= 1
                $0.executing += 1
            }
        }
    }

    /// The work ``holdQueued()`` counted has run.
    func releaseHeld() {
        finishedOne(executing: true)
    }

    /// Runs `work` on `queue`, a thread the hook cannot see, held from now until it has
    /// run: queued until `queue` picks it up, running from there (``holdQueued()``,
    /// ``beginHeld()``, ``releaseHeld()``).
    func hold(on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void) {
        holdQueued()
        queue.async {
            self.beginHeld()
            work()
            self.releaseHeld()
        }
    }

    /// Suspends until no job caused by this object's wake-ups is queued or running, or
    /// until `timeout` of real time has passed. Returns `false` on time-out.
    ///
    /// Time during which the work only waits for a thread (jobs queued, none running: a
    /// saturated pool, as in a large parallel test run on two cores) is not counted, up to
    /// ten times `timeout` in all: the guard is for work that runs and never settles, and
    /// a job no thread has picked up has not started to.
    ///
    /// Main-actor work is seen through what it does elsewhere: once one of this object's
    /// jobs was enqueued by a main-actor job, settling also sends a marker through the main
    /// queue (the main actor's one first-in-first-out queue) and waits for it, so whatever
    /// the woken work sent to the main actor before has run; while that starts more counted
    /// work, it goes round again. (The settling task's own jobs may be counted, as a task
    /// this object counted before: they are left out of that comparison.)
    ///
    /// A caller isolated to another actor (`actor`: not the main actor) holds that
    /// actor while it calls; the tasks it started there, and those their work resumed there,
    /// wait in the actor's queue, which no hook sees. So each settle then also sends a
    /// marker through that actor, at a low priority (behind every job its tasks queued there
    /// before it: an actor runs its jobs by priority, in order within one), and goes round
    /// again the same way while that starts more counted work. (The drain that runs those
    /// tasks once the caller leaves the actor is counted: ``leavingActor()``.)
    func settle(timeout: Duration, through actor: (any Actor)? = nil) async -> Bool {
        let settler = Self.currentTaskID
        state.withLock { $0.settlers[settler, default: 0] += 1 }
        defer {
            state.withLock { state in
                state.settlers[settler, default: 1] -= 1
                if state.settlers[settler] == 0 { state.settlers[settler] = nil }
            }
        }
        guard var settledAt = await settleCounted(timeout: timeout) else { return false }
        if let actor {
            guard let next = await roundTrips(after: settledAt, timeout: timeout, { hold(through: actor) })
            else { return false }
            settledAt = next
        }
        // `usesMain` only ever turns true.
        guard state.withLock({ $0.usesMain }) else { return true }
        return await roundTrips(after: settledAt, timeout: timeout) {
            waitForMain()
            hold(on: .main) { self.doneWaitingForMain() }
        } != nil
    }

    /// Sends a marker with `send` (held, like any work handed to a thread the hook cannot
    /// see) and settles, round after round, until a round starts nothing but its marker:
    /// whatever the work had sent that way before the marker has then run. (Work that
    /// started in between may have sent more there after the marker: round again.) Returns
    /// `started` as that last settle left it, or `nil` on time-out.
    private func roundTrips(
        after settledAt: UInt64, timeout: Duration, _ send: () -> Void
    ) async -> UInt64? {
        var settledAt = settledAt
        while true {
            send()
            guard let next = await settleCounted(timeout: timeout) else { return nil }
            if next == settledAt + 1 { return next }
            settledAt = next
        }
    }

    /// Runs a marker on `actor`, held from now until it has run, like ``hold(on:_:)``: a
    /// task that hops onto `actor` at a low priority (below the test's, which the tasks it
    /// started inherit; the lowest, `.background`, waits behind busy CPUs for whole
    /// milliseconds), so it is queued there behind what the actor has queued and runs once
    /// that has run. Made where no clock is injected and no thread's mark is set, so neither
    /// its jobs nor the actor's that it starts are counted (its hold is): a round that
    /// starts nothing but the marker is seen as one.
    private func hold(through actor: any Actor) {
        holdQueued()
        let mark = Self.current
        Self.current = nil
        defer { Self.current = mark }
        InjectionContext().run {
            _ = Task(priority: .low) {
                // Leaving the actor, the marker may schedule its drain: counted (below).
                let leaving = self.leavingActor()
                await Self.reach(actor)
                leaving.end()
                self.beginHeld()
                self.releaseHeld()
            }
        }
    }

    /// Returns once on `actor`.
    private static func reach(_ actor: isolated any Actor) {}

    /// Suspends until no job caused by this object's wake-ups is queued or running, or
    /// until `timeout` (with the starved time's extension) has passed; returns `started`
    /// as it was at that moment, or `nil` on time-out.
    private func settleCounted(timeout: Duration) async -> UInt64? {
        await withCheckedContinuation { (continuation: CheckedContinuation<UInt64?, Never>) in
            // If this task is itself counted, `running` counts it until it suspends, right
            // after this closure: its own end of slice can then be the one that settles.
            let registered = state.withLock { state -> DispatchWorkItem? in
                if state.running == 0 { return nil }
                state.nextID += 1
                let id = state.nextID
                let timer = DispatchWorkItem { [weak self] in self?.expire(id) }
                state.waiters.append(
                    Waiter(
                        id: id, continuation: continuation, timer: timer,
                        starvedCredited: state.starved(at: .now), extensionLeft: timeout * 10))
                return timer
            }
            guard let registered else { return continuation.resume(returning: state.withLock { $0.started }) }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout.timeInterval, execute: registered)
        }
    }

    /// Waiter `id`'s timer ran out: if its work spent part of that time waiting for a
    /// thread, it waits that much longer (within its extension); otherwise it gives up, if
    /// it is still waiting.
    private func expire(_ id: UInt64) {
        enum Outcome {
            case gone
            case extended(DispatchWorkItem, Duration)
            case expired(Waiter)
        }
        let outcome = state.withLock { state -> Outcome in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return .gone }
            let starved = state.starved(at: .now)
            let owed = min(starved - state.waiters[index].starvedCredited, state.waiters[index].extensionLeft)
            guard owed < .milliseconds(1) else {
                let timer = DispatchWorkItem { [weak self] in self?.expire(id) }
                state.waiters[index].timer = timer
                state.waiters[index].starvedCredited = starved
                state.waiters[index].extensionLeft -= owed
                return .extended(timer, owed)
            }
            return .expired(state.waiters.remove(at: index))
        }
        switch outcome {
        case .gone:
            break
        case .extended(let timer, let delay):
            DispatchQueue.global().asyncAfter(deadline: .now() + delay.timeInterval, execute: timer)
        case .expired(let waiter):
            waiter.continuation.resume(returning: nil)
        }
    }

    /// Counts `job` and runs it on Dispatch's global queue, on this object's account.
    /// `startsWork`: whether it counts as work started, for a settle's round trips, and its
    /// task is followed from now (`false` for a caller leaving its actor: the drain it
    /// schedules only runs what was queued there, and the caller is not the clock's work).
    func enqueue(_ job: UnownedJob, startsWork: Bool = true) {
        let onMain = Self.isOnMainQueue
        let task = _ambientJobTaskId(job)
        state.withLock { state in
            state.update {
                $0.running += 1
                $0.queued += 1
            }
            if startsWork, task == 0 || state.settlers[task] == nil { state.started += 1 }
            if onMain { state.usesMain = true }
        }
        if startsWork { Self.follow(task, for: self) }
        DispatchQueue.global().async {
            self.state.withLock { state in
                state.update {
                    $0.queued -= 1
                    $0.executing += 1
                }
            }
            let previous = Self.current
            Self.current = Unmanaged.passUnretained(self)
            if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *),
                let executor = self.executor as? CountingExecutor
            {
                job.runSynchronously(on: executor.asUnownedTaskExecutor())
            } else {
                _ambientRunJob(job, Self.genericExecutor)
            }
            Self.current = previous
            self.finishedOne(executing: true)
        }
    }

    // MARK: - The tasks this object counted

    /// Every task whose job a `WokenWork` counted, by the task's ID (never reused in a
    /// process): its later jobs are that object's work too, wherever they are enqueued. A
    /// main-actor task's hop to the global executor is enqueued from the main queue, where
    /// neither a thread's mark nor (the task being switched out) its injected clock can be
    /// read. Strong references, dropped by ``forgetTasks()`` when the clock goes, and never
    /// released while the lock is held. Each object's IDs are listed too, so forgetting them
    /// costs what that object counted, not what every live clock did.
    private struct Followed {
        var byTask: [UInt64: WokenWork] = [:]
        var byWork: [ObjectIdentifier: [UInt64]] = [:]
    }

    private static let tasks = Locked(Followed())

    /// Remembers task `id` (0: a job that is not a task's) as `work`'s.
    private static func follow(_ id: UInt64, for work: WokenWork) {
        guard id != 0 else { return }
        let replaced = tasks.withLock { tasks -> WokenWork? in
            if tasks.byTask[id] === work { return nil }
            tasks.byWork[ObjectIdentifier(work), default: []].append(id)
            return tasks.byTask.updateValue(work, forKey: id)
        }
        _ = replaced  // released here, after the lock
    }

    /// The `WokenWork` that counted a job of `job`'s task before, if any.
    private static func following(_ job: UnownedJob) -> WokenWork? {
        let id = _ambientJobTaskId(job)
        guard id != 0 else { return nil }
        return tasks.withLock { $0.byTask[id] }
    }

    /// The objects waiting for the main actor now (an `advance` or `run` called there, a
    /// marker on its way through the main queue), with how many waits each: a job the main
    /// actor enqueues meanwhile that nothing else names (a main-actor task's first hop to
    /// the global executor: it was started there, where no hook sees) is one of theirs.
    private static let mainWaiters = Locked(CountedEntries<ObjectIdentifier>())

    /// An object waiting for the main actor, when this code runs as a main-actor job.
    private static func awaitingMain() -> WokenWork? {
        guard isOnMainQueue else { return nil }
        return mainWaiters.withLock { $0.entries.first?.value.work }
    }

    /// From now until the matching ``doneWaitingForMain()``, what the main actor sends to
    /// the global executor that nothing else names is this object's work; and settling goes
    /// through the main queue from now on.
    func waitForMain() {
        state.withLock { $0.usesMain = true }
        Self.mainWaiters.withLock { $0.add(ObjectIdentifier(self), self) }
    }

    /// Ends one ``waitForMain()``.
    func doneWaitingForMain() {
        let ended = Self.mainWaiters.withLock { $0.remove(ObjectIdentifier(self)) }
        _ = ended  // released here, after the lock
    }

    /// The tasks that are leaving an actor for this object now (by ID, with how many times
    /// each): a caller of `advance`, `run` or `waitForSleepers` isolated to an actor other
    /// than the main actor (a global actor, or the test's own), and the marker a settle sends
    /// through that actor. A task that leaves a default actor while jobs are queued there hands
    /// them to a drain it schedules right then, on the global executor, as the current
    /// task: that drain is this object's work.
    private static let leavers = Locked(CountedEntries<UInt64>())

    /// One task's registration as leaving an actor for a `WokenWork`: ``end()`` it once
    /// back on the actor (or past it).
    struct LeavingActor {
        fileprivate let task: UInt64

        /// Ends the registration.
        func end() {
            guard task != 0 else { return }
            let ended = WokenWork.leavers.withLock { $0.remove(task) }
            EnqueueHookSlot.countLeavers(-1)
            _ = ended  // released here, after the lock
        }
    }

    /// Registers the current task as leaving its actor for this object, until the returned
    /// registration's ``LeavingActor/end()``: the drain the runtime schedules for the jobs
    /// still queued on the actor as the task leaves it (so for the tasks a test isolated to
    /// that actor started there) is counted, with everything it runs, including a task that
    /// leaves the actor in place and runs on in that drain's thread.
    func leavingActor() -> LeavingActor {
        let task = Self.currentTaskID
        guard task != 0 else { return LeavingActor(task: 0) }
        EnqueueHookSlot.countLeavers(1)
        Self.leavers.withLock { $0.add(task, self) }
        return LeavingActor(task: task)
    }

    /// The `WokenWork` whose caller is leaving an actor, when `job` is that caller's own, or
    /// is not a task's (an actor's drain) and the current task is that caller. (Not a task
    /// the caller makes: a settle's marker is made there, uncounted.)
    private static func leaving(_ job: UnownedJob) -> WokenWork? {
        guard EnqueueHookSlot.hasLeavers else { return nil }
        let jobTask = _ambientJobTaskId(job)
        let task = jobTask != 0 ? jobTask : currentTaskID
        guard task != 0 else { return nil }
        return leavers.withLock { $0.entries[task]?.work }
    }

    /// Drops every task this object counted: its clock is gone.
    func forgetTasks() {
        let removed = Self.tasks.withLock { tasks -> [WokenWork] in
            let ids = tasks.byWork.removeValue(forKey: ObjectIdentifier(self)) ?? []
            // An ID another object counted later is that object's now.
            return ids.compactMap { id in
                guard tasks.byTask[id] === self else { return nil }
                return tasks.byTask.removeValue(forKey: id)
            }
        }
        _ = removed  // released here, after the lock
    }

    /// The running task's ID, or 0 outside a task. (A task is a job to the runtime: the
    /// current task's one reference, read as a job, names the same object.)
    private static var currentTaskID: UInt64 {
        withUnsafeCurrentTask { task in
            task.map { _ambientJobTaskId(unsafeBitCast($0, to: UnownedJob.self)) } ?? 0
        }
    }

    /// Marks the main queue, where the main actor's jobs run (on Linux under `swift test`,
    /// on a thread Foundation does not call the main thread).
    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Whether this code runs as part of a main-queue item: a main-actor job.
    private static var isOnMainQueue: Bool {
        DispatchQueue.getSpecific(key: mainQueueKey) == true
    }

    /// One counted job has suspended or finished: wake the waiters if it was the last.
    private func finishedOne(executing: Bool = false) {
        let (settled, started) = state.withLock { state -> ([Waiter], UInt64) in
            state.update {
                $0.running -= 1
                if executing { $0.executing -= 1 }
            }
            guard state.running == 0 else { return ([], state.started) }
            defer { state.waiters.removeAll() }
            return (state.waiters, state.started)
        }
        for waiter in settled {
            waiter.timer.cancel()
            waiter.continuation.resume(returning: started)
        }
    }

    // MARK: - The runtime seam

    /// The runtime's own enqueue, handed to the hook.
    private typealias Original = @convention(thin) (UnownedJob) -> Void
    /// `swift_task_enqueueGlobal_hook`'s type.
    private typealias Hook = @convention(thin) (UnownedJob, Original) -> Void

    /// The generic executor (no isolation): what the global executor runs jobs on. An
    /// `UnownedSerialExecutor` is two words; the generic one is both zero.
    private static let genericExecutor = unsafeBitCast((UInt(0), UInt(0)), to: UnownedSerialExecutor.self)

    /// The runtime's hook slot, where the runtime has one. `nonisolated(unsafe)`: the
    /// pointer never changes, and the slot it points to is only read and written through
    /// the shims' atomics.
    private nonisolated(unsafe) static let slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>? = dlsym(
        dlopen(nil, RTLD_NOW), "swift_task_enqueueGlobal_hook"
    ).map { $0.assumingMemoryBound(to: UnsafeMutableRawPointer?.self) }

    /// Ambient's hook: counted jobs to their `WokenWork`, every other job to the hook it
    /// replaced (another tool's), or to the runtime.
    private static let hook: Hook = { job, original in
        if let work = InjectionContext.current[Clock.self]?.jobCounter {
            // Enqueued by code running where a TestClock is injected (a task the test
            // starts, what it resumes): that clock's work, whichever clock's job it runs in.
            work.enqueue(job, startsWork: true)
        } else if let work = leaving(job) {
            // An actor's drain, scheduled as a clock's caller (or its marker) leaves the actor
            // with jobs still queued there: the tasks the caller started on it run in that
            // drain, and one that leaves the actor in place runs on inside it. Or the
            // caller's own job. Before the thread's mark: the caller may run inside a drain
            // another clock's work scheduled (an actor shared by tests).
            work.enqueue(job, startsWork: false)
        } else if let work = WokenWork.current {
            work.takeUnretainedValue().enqueue(job)
        } else if let work = following(job) ?? awaitingMain() {
            // A task whose earlier jobs were counted, enqueued where neither the thread's
            // mark nor its scope can be read (a main-actor task's hop to the global
            // executor): that clock's work still. Or one the main actor sends on while a
            // clock waits for the main queue: that clock's.
            work.enqueue(job)
        } else if let previous = EnqueueHookSlot.previous {
            unsafeBitCast(previous, to: Hook.self)(job, original)
        } else {
            original(job)
        }
    }

    /// `hook`'s address, as the slot holds it (immutable: `nonisolated(unsafe)` is safe).
    private nonisolated(unsafe) static let hookAddress = unsafeBitCast(hook, to: UnsafeMutableRawPointer.self)

    /// Puts Ambient's hook in the runtime's slot unless it is there: the first time a
    /// `TestClock` is made, and before every `advance`, `run` and settle, because another
    /// tool may have replaced it since (`withMainSerialExecutor` saves whether *a* hook is
    /// installed, installs its own and, when its block ends, installs its own again or
    /// none). The hook found there, if any, keeps every job Ambient does not count. `false`
    /// where the runtime has no hook.
    @discardableResult
    static func ensureHook() -> Bool {
        guard let slot else { return false }
        while true {
            let installed = EnqueueHookSlot.load(slot)
            if installed == hookAddress { return true }
            // Publish what this hook will hand uncounted jobs to before installing it.
            EnqueueHookSlot.setPrevious(installed)
            if EnqueueHookSlot.replace(slot, expected: installed, with: hookAddress) { return true }
        }
    }

    /// Whether the hook is in place (it is not where the runtime has no such hook):
    /// puts it back first if another tool replaced it.
    static var isAvailable: Bool {
        ensureHook()
    }

    // MARK: - Which WokenWork this thread is doing work for

    private static let working = ThreadSlot<WokenWork>("TestClock")

    /// The `WokenWork` the running thread does work for, unretained: the dispatched block
    /// (or `causing`'s caller) keeps it alive while it is set.
    private static var current: Unmanaged<WokenWork>? {
        get { working.current }
        set { working.current = newValue }
    }
}

/// `WokenWork`s by key, each with how many registrations hold it: a registration made
/// twice is ended twice.
private struct CountedEntries<Key: Hashable & Sendable>: Sendable {
    var entries: [Key: (work: WokenWork, count: Int)] = [:]

    /// One more registration of `work` under `key`.
    mutating func add(_ key: Key, _ work: WokenWork) {
        entries[key, default: (work, 0)].count += 1
    }

    /// Ends one registration under `key`; returns the work when that was the last (release
    /// it after the lock).
    mutating func remove(_ key: Key) -> WokenWork? {
        guard let entry = entries[key] else { return nil }
        if entry.count > 1 {
            entries[key]?.count -= 1
            return nil
        }
        return entries.removeValue(forKey: key)?.work
    }
}

/// `swift_job_run`: runs one job until it suspends or finishes, as the global executor
/// does. Exported by the concurrency runtime since Swift 5.5 (and declared the same way,
/// as a free function, by the standard library itself).
@_silgen_name("swift_job_run")
private func _ambientRunJob(_ job: UnownedJob, _ executor: UnownedSerialExecutor)

/// `swift_task_getJobTaskId`: the ID of the task `job` runs a slice of (unique in the
/// process, never reused), or 0 for a job that is not a task's. Exported by the concurrency
/// runtime since Swift 5.9 (the standard library declares it the same way).
@_silgen_name("swift_task_getJobTaskId")
private func _ambientJobTaskId(_ job: UnownedJob) -> UInt64

/// The task executor a counted job runs on: whatever the job enqueues on "the current
/// executor" (`Task.yield()` since Swift 6.2) comes back here and is counted too. It is
/// never a task's *preference*, so nothing outside the counted jobs is sent to it.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
private final class CountingExecutor: TaskExecutor {
    /// Weak: a job may be enqueued after its `TestClock` is gone; it then runs as usual.
    private weak let work: WokenWork?

    init(work: WokenWork) {
        self.work = work
    }

    func enqueue(_ job: consuming ExecutorJob) {
        if let work {
            work.enqueue(UnownedJob(job))
        } else {
            globalConcurrentExecutor.enqueue(job)
        }
    }
}
