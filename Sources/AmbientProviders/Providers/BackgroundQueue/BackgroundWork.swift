// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Dispatch
import Foundation

// Why: a test waits for the background work its scope started, and on a driven queue that
// work runs in one order a `TestClock` moves through.

/// The object behind a tracked or driven ``BackgroundQueue``: the work submitted where it
/// is injected that has not finished, and, driven, the one serial order that work runs in.
///
/// Every submission is counted when it is made and uncounted when it has run, so work that
/// submits more (its scope, and so this object, travels with it) keeps the count above zero
/// until the last of it is done: `finished()` cannot return between a piece of work and
/// the work it sent on.
@usableFromInline
final class BackgroundWork: Sendable {
    /// A piece of driven work waiting for the test clock to reach its deadline.
    private struct Delayed: Sendable, DueWork {
        let order: UInt64
        let deadline: Clock.Instant
        let run: @Sendable () -> Void
    }

    private enum Waiter: Sendable {
        case task(CheckedContinuation<Bool, Never>)
        case thread(DispatchSemaphore)
    }

    private struct State: Sendable {
        var unfinished = 0
        var nextOrder: UInt64 = 0
        var nextWaiter: UInt64 = 0
        var delayed: [Delayed] = []
        var waiters: [(id: UInt64, waiter: Waiter)] = []
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
    }

    /// Submissions made and not yet finished (driven work waiting for its deadline is not
    /// counted until the clock reaches it).
    var unfinished: Int {
        state.withLock { $0.unfinished }
    }

    // MARK: - Submitting

    /// `work`, carried in `context`, submitted to `queue` (tracked) or to the driven order.
    func async(
        on queue: DispatchQueue, group: DispatchGroup?, qos: DispatchQoS, flags: DispatchWorkItemFlags,
        context: InjectionContext, work: @escaping @Sendable () -> Void
    ) {
        group?.enter()
        let run = counted(context, work)
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
        }
    }

    /// `work`, carried in `context`, run `delay` from now: Dispatch's time when tracked, the
    /// test clock's when driven.
    func asyncAfter(
        _ delay: Duration, on queue: DispatchQueue, qos: DispatchQoS, flags: DispatchWorkItemFlags,
        context: InjectionContext, work: @escaping @Sendable () -> Void
    ) {
        guard let testClock else {
            queue.asyncAfter(
                deadline: .now() + delay.timeInterval, qos: qos, flags: flags, execute: counted(context, work))
            return
        }
        // Counted once the clock reaches it (`takeNextDue`), not before.
        let run = finishing(context, work)
        let deadline = testClock.instant.advanced(by: delay)
        state.withLock { state in
            state.delayed.append(Delayed(order: state.nextOrder, deadline: deadline, run: run))
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
            while let item = self.takeNextDue() {
                item.run()
            }
        }
    }

    private func takeNextDue() -> Delayed? {
        guard let now = testClock?.instant else { return nil }
        return state.withLock { state -> Delayed? in
            guard let next = state.delayed.removeNextDue(by: now) else { return nil }
            state.unfinished += 1
            return next
        }
    }

    /// `work`, carried in `context` and counted from now until it has run: what this object
    /// queues itself, and work that runs where it does not schedule it (an operation queue).
    func counted(_ context: InjectionContext, _ work: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        begin()
        return finishing(context, work)
    }

    /// `work`, carried in `context`, then one count ended.
    private func finishing(_ context: InjectionContext, _ work: @escaping @Sendable () -> Void) -> @Sendable () -> Void
    {
        {
            context.run(work)
            self.end()
        }
    }

    // MARK: - Counting and waiting

    /// Counts one more unfinished piece of work.
    func begin() {
        state.withLock { $0.unfinished += 1 }
    }

    /// One piece of work has finished: wakes the waiters if it was the last.
    func end() {
        let waiters = state.withLock { state -> [(id: UInt64, waiter: Waiter)] in
            state.unfinished -= 1
            guard state.unfinished == 0 else { return [] }
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for (_, waiter) in waiters { Self.wake(waiter, finished: true) }
    }

    /// Suspends until nothing submitted here is unfinished, or `timeout` of real time has
    /// passed; `false` on time-out.
    func finished(timeout: Duration) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            guard let id = register(.task(continuation)) else { return continuation.resume(returning: true) }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout.timeInterval) { self.expire(id) }
        }
    }

    /// Blocks this thread until nothing submitted here is unfinished, or `timeout` of real
    /// time has passed; `false` on time-out.
    func waitUntilFinished(timeout: Duration) -> Bool {
        let semaphore = DispatchSemaphore(value: 0)
        guard let id = register(.thread(semaphore)) else { return true }
        if semaphore.wait(timeout: .now() + timeout.timeInterval) == .success { return true }
        // Timed out, unless `end` took the waiter meanwhile: then its signal is on its way.
        if remove(id) != nil { return false }
        semaphore.wait()
        return true
    }

    /// Adds a waiter, or returns `nil` when nothing is unfinished.
    private func register(_ waiter: Waiter) -> UInt64? {
        state.withLock { state -> UInt64? in
            guard state.unfinished > 0 else { return nil }
            state.nextWaiter += 1
            state.waiters.append((state.nextWaiter, waiter))
            return state.nextWaiter
        }
    }

    private func remove(_ id: UInt64) -> Waiter? {
        state.withLock { state -> Waiter? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index).waiter
        }
    }

    private func expire(_ id: UInt64) {
        if let expired = remove(id) { Self.wake(expired, finished: false) }
    }

    private static func wake(_ waiter: Waiter, finished: Bool) {
        switch waiter {
        case .task(let continuation): continuation.resume(returning: finished)
        case .thread(let semaphore): if finished { semaphore.signal() }
        }
    }
}
