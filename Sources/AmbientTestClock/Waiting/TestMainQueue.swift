// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation

// Why: a main queue a `TestClock` drives. Each piece of work is a sleeper on the clock (so
// `advance` reaches it at its deadline and waits for it), and runs on the main actor in
// (deadline, order scheduled) order, whichever sleeper wakes first.

/// The work scheduled on a ``MainQueue/driven(by:)`` queue, and the sleepers that run it.
final class TestMainQueue: MainQueueDriver, PendingWorkSource {
    private struct Item: Sendable, DueWork {
        let order: UInt64
        let deadline: Clock.Instant
        let repeating: Duration?
        let timer: MainQueue.Timer?
        let work: @MainActor @Sendable () -> Void
    }

    private struct Pending: Sendable {
        var nextOrder: UInt64 = 0
        var items: [Item] = []
    }

    let testClock: TestClock
    private let pending = Locked(Pending())

    init(testClock: TestClock) {
        self.testClock = testClock
        IssueReporter.current.pendingWork?.watch(self)
    }

    /// `MainQueue.driven(by: <its clock>)`.
    var description: String {
        "MainQueue.driven(by: \(testClock))"
    }

    /// The work not yet run, for the end-of-test report: a timer that is still valid, or
    /// deferred work, each with when the test clock would run it.
    func pendingWork() -> [String] {
        let now = testClock.instant
        let items = pending.withLock { $0.items }.filter { $0.timer?.isValid ?? true }.sorted { $0.order < $1.order }
        return items.map { item in
            let due =
                "due when the test clock reaches \(Submission.time(item.deadline)) (it is at \(Submission.time(now)))"
            guard let interval = item.repeating else { return "MainQueue.driven: work \(due)" }
            return "MainQueue.driven: a timer repeating every \(interval) until invalidated, next \(due)"
        }
    }

    func schedule(
        after delay: Duration, repeating interval: Duration?, timer: MainQueue.Timer?,
        work: @escaping @MainActor @Sendable () -> Void
    ) {
        schedule(at: testClock.deadline(after: delay), repeating: interval, timer: timer, work: work)
    }

    private func schedule(
        at deadline: Clock.Instant, repeating interval: Duration?, timer: MainQueue.Timer?,
        work: @escaping @MainActor @Sendable () -> Void
    ) {
        pending.withLock { pending in
            pending.items.append(
                Item(order: pending.nextOrder, deadline: deadline, repeating: interval, timer: timer, work: work))
            pending.nextOrder += 1
        }
        // Started where the test clock is injected, so the clock counts the new task and
        // an `advance` waits until it is asleep.
        let clock = testClock.clock
        let sleeper = withInjected(clock) {
            Task { [self] in
                do {
                    try await clock.sleep(until: deadline)
                } catch {
                    return  // the timer was invalidated
                }
                await runDue()
            }
        }
        timer?.onInvalidate { sleeper.cancel() }
    }

    /// Runs, on the main actor, every item due by now, earliest deadline first, then in the
    /// order scheduled; a repeating timer's next firing is scheduled as it fires.
    ///
    /// The clock is held from before the hop to the main actor until the last item has run
    /// there; the hop back to the global pool comes after the release, so the settle does
    /// not wait for it (a saturated test run can keep such a job waiting a long time).
    private func runDue() async {
        testClock.holdSettling()
        await MainActor.run {
            testClock.beginSettling()
            while let item = takeNextDue() {
                testClock.counting { item.work() }
                if let interval = item.repeating, let timer = item.timer, timer.isValid {
                    schedule(
                        at: Clock.Instant(offset: (item.deadline.offset + interval).roundedToNanoseconds),
                        repeating: interval, timer: timer, work: item.work)
                }
            }
            testClock.releaseSettling()
        }
    }

    private func takeNextDue() -> Item? {
        let now = testClock.instant
        return pending.withLock { pending in
            pending.items.removeAll { $0.timer?.isValid == false }
            return pending.items.removeNextDue(by: now)
        }
    }
}
