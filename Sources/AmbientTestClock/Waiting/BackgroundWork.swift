// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Dispatch
import Foundation

// Why: a test waits for the background work its scope started, and on a driven queue that
// work runs in one order a `TestClock` moves through.

/// The object behind a tracked or driven `BackgroundQueue`: the work submitted where it
/// is injected that has not finished, and, driven, the one serial order that work runs in.
///
/// Every submission is counted when it is made and uncounted when it has run, so work that
/// submits more (its scope, and so this object, travels with it) keeps the count above zero
/// until the last of it is done: `finished()` cannot return between a piece of work and
/// the work it sent on.
final class BackgroundWork: CountedWork, PendingWorkSource {
    /// A piece of driven work waiting for the test clock to reach its deadline.
    private struct Delayed: Sendable, DueWork {
        let order: UInt64
        let deadline: Clock.Instant
        let submission: Submission
        let run: @Sendable (UInt64) -> Void
    }

    /// A `DispatchGroup` notification waiting for its group to empty.
    private struct Notification: Sendable {
        let group: DispatchGroup
        let deliver: @Sendable () -> Void
    }

    /// Why a wait stopped waiting.
    enum Outcome: Sendable {
        /// Nothing is unfinished.
        case finished
        /// The timeout of real time passed.
        case timedOut
        /// Everything unfinished waits for the test clock, which only the test can move.
        case waitsForTheTestClock
    }

    private enum Waiter: Sendable {
        case task(CheckedContinuation<Outcome, Never>)
        case thread(DispatchSemaphore, Locked<Outcome>)
    }

    private struct State: Sendable {
        var nextID: UInt64 = 0
        var nextOrder: UInt64 = 0
        var nextWaiter: UInt64 = 0
        /// The counted work: submitted and not yet finished.
        var pending: [UInt64: Submission] = [:]
        var delayed: [Delayed] = []
        var notifications: [UInt64: Notification] = [:]
        var waiters: [(id: UInt64, waiter: Waiter)] = []

        /// Whether there is unfinished work and all of it waits for the test clock.
        var onlyTheTestClockCanMoveOn: Bool {
            !pending.isEmpty && pending.values.allSatisfy(\.waitsForTheTestClock)
        }

        mutating func takeWaiters() -> [(id: UInt64, waiter: Waiter)] {
            defer { waiters.removeAll() }
            return waiters
        }
    }

    /// The clock a driven queue's deadlines are on; `nil` when tracked (live Dispatch).
    let testClock: TestClock?
    /// A driven queue's one order: every carrying queue's work, one piece at a time.
    private let serial: DispatchQueue?
    private let state = Locked(State())

    /// Marks the driven order's thread while it runs work, so a `sync` from that work runs
    /// in place instead of waiting for itself.
    private static let onSerial = DispatchSpecificKey<ObjectIdentifier>()

    init(testClock: TestClock?) {
        self.testClock = testClock
        if testClock != nil {
            let serial = DispatchQueue(label: "Ambient.BackgroundQueue.driven")
            serial.setSpecific(key: Self.onSerial, value: ObjectIdentifier(serial))
            self.serial = serial
        } else {
            serial = nil
        }
        IssueReporter.current.pendingWork?.watch(self)
    }

    /// Submissions made and not yet finished (driven work waiting for its deadline is not
    /// counted until the clock reaches it).
    /// Whether a test clock orders this work.
    var isDriven: Bool { testClock != nil }

    /// `BackgroundQueue.tracked()`, or `.driven(by:)` with its clock.
    var description: String {
        guard let testClock else { return "BackgroundQueue.tracked()" }
        return "BackgroundQueue.driven(by: \(testClock))"
    }

    var unfinished: Int {
        state.withLock { $0.pending.count }
    }

    // MARK: - Submitting

    /// `work`, carried in `context`, submitted to `queue` (tracked) or to the driven order.
    func async(
        on queue: DispatchQueue, group: DispatchGroup?, qos: DispatchQoS, flags: DispatchWorkItemFlags,
        context: InjectionContext, submission: Submission, work: @escaping @Sendable () -> Void
    ) {
        group?.enter()
        let id = begin(submission)
        let run = finishing(id, context, work)
        guard let serial, let testClock else {
            queue.async(qos: qos, flags: flags) {
                run()
                group?.leave()
            }
            return
        }
        testClock.settling(on: serial) {
            run()
            group?.leave()
            self.deliverReadyNotifications()
        }
    }

    /// `work`, carried in `context`, run `delay` from now: Dispatch's time when tracked, the
    /// test clock's when driven.
    func asyncAfter(
        _ delay: Duration, on queue: DispatchQueue, qos: DispatchQoS, flags: DispatchWorkItemFlags,
        context: InjectionContext, submission: Submission, work: @escaping @Sendable () -> Void
    ) {
        guard let testClock else {
            let id = begin(submission)
            queue.asyncAfter(
                deadline: .now() + delay.timeInterval, qos: qos, flags: flags, execute: finishing(id, context, work))
            return
        }
        // Counted once the clock reaches it (`takeNextDue`), not before.
        let deadline = testClock.deadline(after: delay)
        var delayed = submission
        delayed.waiting = .deadline(deadline)
        let run: @Sendable (UInt64) -> Void = { id in self.finishing(id, context, work)() }
        state.withLock { state in
            state.delayed.append(Delayed(order: state.nextOrder, deadline: deadline, submission: delayed, run: run))
            state.nextOrder += 1
        }
        // A sleeper on the test clock, started where the clock is injected, so the clock
        // counts the new task and an `advance` reaches it at its deadline and waits for it.
        let clock = testClock.clock
        _ = withInjected(clock) {
            Task { [self] in
                do {
                    try await clock.sleep(until: deadline)
                } catch {
                    return
                }
                runDue()
            }
        }
    }

    /// `work`, carried in `context`, run now, the caller waiting: on `queue` (tracked), or
    /// after the driven order's earlier work (in place when called from that work). Its
    /// outcome is handed back as a value, so a typed error passes through untouched.
    func sync<T, Failure: Error>(
        on queue: DispatchQueue, flags: DispatchWorkItemFlags, context: InjectionContext,
        work: () throws(Failure) -> T
    ) -> Result<T, Failure> {
        guard let serial else {
            return queue.sync(flags: flags) { context.run { Result(catching: work) } }
        }
        if DispatchQueue.getSpecific(key: Self.onSerial) == ObjectIdentifier(serial) {
            return context.run { Result(catching: work) }
        }
        return serial.sync { context.run { Result(catching: work) } }
    }

    /// The delayed work due by the test clock's time, run in the driven order: earliest
    /// deadline first, then in the order submitted.
    ///
    /// It holds the clock from here until the last of it has run on the driven order's
    /// thread, and the sleeper that calls it ends there: nothing an `advance` waits for
    /// runs after the release, so no hop back to the global pool (which a saturated test
    /// run can keep waiting for a long time) stands between the work and the settle.
    private func runDue() {
        guard let serial, let testClock else { return }
        testClock.settling(on: serial) {
            while let (id, item) = self.takeNextDue() {
                item.run(id)
                self.deliverReadyNotifications()
            }
        }
    }

    private func takeNextDue() -> (UInt64, Delayed)? {
        guard let now = testClock?.instant else { return nil }
        return state.withLock { state -> (UInt64, Delayed)? in
            guard let next = state.delayed.removeNextDue(by: now) else { return nil }
            state.nextID += 1
            var submission = next.submission
            submission.waiting = .queued
            state.pending[state.nextID] = submission
            return (state.nextID, next)
        }
    }

    // MARK: - Group notifications

    /// Delivers `deliver` (which submits the notification's work, carried and counted) once
    /// `group` is empty, counting it from now: a wait covers the notification and the work
    /// it submits. Driven, a group emptied by driven work delivers before that work's hold
    /// on the test clock ends, so an `advance` waits for what the notification runs.
    func notify(group: DispatchGroup, submission: Submission, deliver: @escaping @Sendable () -> Void) {
        var waiting = submission
        waiting.waiting = .group
        let id = begin(waiting)
        state.withLock { $0.notifications[id] = Notification(group: group, deliver: deliver) }
        guard let testClock else {
            group.notify(queue: .global()) { self.deliverNotification(id) }
            return
        }
        // Emptied by something the clock does not hold (an uncarried `leave()`): held from
        // before the claim, so a delivery made here is held before this releases.
        group.notify(queue: .global()) {
            testClock.holdSettling()
            testClock.beginSettling()
            self.deliverNotification(id)
            testClock.releaseSettling()
        }
        // Already empty: delivered now, within whatever holds the clock here.
        if group.isEmpty { deliverNotification(id) }
    }

    /// Delivers notification `id` unless it already was.
    private func deliverNotification(_ id: UInt64) {
        guard let notification = state.withLock({ $0.notifications.removeValue(forKey: id) }) else { return }
        notification.deliver()
        end(id)
    }

    /// Delivers every notification whose group is now empty: called by driven work after it
    /// has run (and left its group), while it still holds the test clock.
    func deliverReadyNotifications() {
        let ready = state.withLock { state -> [UInt64] in
            state.notifications.filter { $0.value.group.isEmpty }.map(\.key)
        }
        for id in ready.sorted() { deliverNotification(id) }
    }

    // MARK: - Work that runs where this object does not schedule it

    /// Counts `submission`, a piece of work that runs where this object does not schedule
    /// it (an operation queue's thread, the main queue, a thread of its own), until its
    /// ticket says it has finished; driven, it also holds the test clock for as long, so an
    /// `advance` waits for it.
    func admit(_ submission: Submission) -> WorkTicket {
        let ticket = WorkTicket(work: self, id: begin(submission))
        testClock?.holdSettling()
        return ticket
    }

    /// Admitted work `id` has started on its thread.
    func started(_ id: UInt64) {
        testClock?.beginSettling()
        update(id, to: .running)
    }

    /// Admitted work `id` has finished (after ``started(_:)``): the notifications it
    /// readied are delivered while it still holds the clock.
    func finished(_ id: UInt64) {
        deliverReadyNotifications()
        end(id)
        testClock?.releaseSettling()
    }

    /// `work`, carried in `context`, then submission `id` ended.
    private func finishing(
        _ id: UInt64, _ context: InjectionContext, _ work: @escaping @Sendable () -> Void
    ) -> @Sendable () -> Void {
        {
            self.update(id, to: .running)
            context.run(work)
            self.end(id)
        }
    }

    // MARK: - Counting and waiting

    /// Counts one more unfinished piece of work, `submission`; returns its id for ``end(_:)``.
    func begin(_ submission: Submission) -> UInt64 {
        state.withLock { state in
            state.nextID += 1
            state.pending[state.nextID] = submission
            return state.nextID
        }
    }

    /// Submission `id` now waits for `waiting`. When everything unfinished then waits for the
    /// test clock, a wait for it stops at once and says so.
    func update(_ id: UInt64, to waiting: Submission.Waiting) {
        let stuck = state.withLock { state -> [(id: UInt64, waiter: Waiter)] in
            guard state.pending[id] != nil else { return [] }
            state.pending[id]?.waiting = waiting
            return state.onlyTheTestClockCanMoveOn ? state.takeWaiters() : []
        }
        for (_, waiter) in stuck { Self.wake(waiter, .waitsForTheTestClock) }
    }

    /// Submission `id` has finished: wakes the waiters if it was the last.
    func end(_ id: UInt64) {
        let waiters = state.withLock { state -> [(id: UInt64, waiter: Waiter)] in
            state.pending[id] = nil
            guard state.pending.isEmpty else { return [] }
            return state.takeWaiters()
        }
        for (_, waiter) in waiters { Self.wake(waiter, .finished) }
    }

    /// Suspends until nothing submitted here is unfinished, everything unfinished waits for
    /// the test clock, or `timeout` of real time has passed.
    func finished(timeout: Duration) async -> Outcome {
        await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            switch register(.task(continuation)) {
            case .done(let outcome): continuation.resume(returning: outcome)
            case .waiting(let id):
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout.timeInterval) { self.expire(id) }
            }
        }
    }

    /// Blocks this thread until nothing submitted here is unfinished, everything unfinished
    /// waits for the test clock, or `timeout` of real time has passed. On the main thread it
    /// runs the main run loop meanwhile, so main-queue work the wait covers can run.
    func waitUntilFinished(timeout: Duration) -> Outcome {
        let semaphore = DispatchSemaphore(value: 0)
        let outcome = Locked(Outcome.finished)
        let id: UInt64
        switch register(.thread(semaphore, outcome)) {
        case .done(let outcome): return outcome
        case .waiting(let registered): id = registered
        }
        let deadline = DispatchTime.now() + timeout.timeInterval
        if Thread.isMainThread {
            while semaphore.wait(timeout: .now()) != .success {
                guard DispatchTime.now() < deadline else { return timedOut(id, semaphore, outcome) }
                _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.002))
            }
            return outcome.withLock { $0 }
        }
        if semaphore.wait(timeout: deadline) == .success { return outcome.withLock { $0 } }
        return timedOut(id, semaphore, outcome)
    }

    /// A thread's wait ran out: timed out, unless a wake took the waiter meanwhile (its
    /// signal is then on its way).
    private func timedOut(_ id: UInt64, _ semaphore: DispatchSemaphore, _ outcome: Locked<Outcome>) -> Outcome {
        if remove(id) != nil { return .timedOut }
        semaphore.wait()
        return outcome.withLock { $0 }
    }

    /// What `register` did: added the waiter, or found that there is nothing to wait for.
    private enum Registration {
        case waiting(UInt64)
        case done(Outcome)
    }

    /// Adds a waiter; or, when there is nothing to wait for, says why.
    private func register(_ waiter: Waiter) -> Registration {
        state.withLock { state -> Registration in
            if state.pending.isEmpty { return .done(.finished) }
            if state.onlyTheTestClockCanMoveOn { return .done(.waitsForTheTestClock) }
            state.nextWaiter += 1
            state.waiters.append((state.nextWaiter, waiter))
            return .waiting(state.nextWaiter)
        }
    }

    private func remove(_ id: UInt64) -> Waiter? {
        state.withLock { state -> Waiter? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index).waiter
        }
    }

    private func expire(_ id: UInt64) {
        if let expired = remove(id) { Self.wake(expired, .timedOut) }
    }

    private static func wake(_ waiter: Waiter, _ outcome: Outcome) {
        switch waiter {
        case .task(let continuation): continuation.resume(returning: outcome)
        case .thread(let semaphore, let result):
            result.withLock { $0 = outcome }
            semaphore.signal()
        }
    }

    // MARK: - Reports

    /// The unfinished work, and driven work waiting for its deadline, one line each in the
    /// order submitted: where it was submitted and what it waits for. Empty when none.
    func pendingWork() -> [String] {
        let now = testClock?.instant
        let (pending, delayed) = state.withLock { state in
            (state.pending.sorted { $0.key < $1.key }.map(\.value), state.delayed.sorted { $0.order < $1.order })
        }
        return (pending + delayed.map(\.submission)).map { $0.described(clockNow: now) }
    }
}

extension DispatchGroup {
    /// Whether nothing has entered the group without leaving it (a wait that does not wait).
    var isEmpty: Bool {
        wait(timeout: .now()) == .success
    }
}
