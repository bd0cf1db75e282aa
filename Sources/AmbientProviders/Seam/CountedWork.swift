// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Dispatch

// Why: the carrying queues count their work where a test waits for it, without knowing what
// counts it: AmbientTestClock's tracked and driven queues do, behind this seam.

/// What the carrying queues, ``BackgroundQueue``, ``MainQueue`` and ``CarryingThread`` call on
/// the object behind a tracked or driven ``BackgroundQueue`` (AmbientTestClock's
/// `BackgroundWork`): each submission counted from when it is made until it has run, and,
/// driven, run in the one order a test clock moves through. Described as the queue's form
/// (`BackgroundQueue.tracked()`).
@usableFromInline
package protocol CountedWork: PendingWorkSource, CustomStringConvertible {
    /// Whether a test clock orders this work (`.driven(by:)`), rather than Dispatch
    /// (`.tracked()`).
    var isDriven: Bool { get }

    /// `work`, carried in `context`, submitted to `queue` (tracked) or to the driven order.
    func async(
        on queue: DispatchQueue, group: DispatchGroup?, qos: DispatchQoS, flags: DispatchWorkItemFlags,
        context: InjectionContext, submission: Submission, work: @escaping @Sendable () -> Void)

    /// `work`, carried in `context`, run `delay` from now: Dispatch's time when tracked, the
    /// test clock's when driven.
    func asyncAfter(
        _ delay: Duration, on queue: DispatchQueue, qos: DispatchQoS, flags: DispatchWorkItemFlags,
        context: InjectionContext, submission: Submission, work: @escaping @Sendable () -> Void)

    /// `work`, carried in `context`, run now, the caller waiting; its outcome handed back as
    /// a value, so a typed error passes through untouched.
    func sync<T, Failure: Error>(
        on queue: DispatchQueue, flags: DispatchWorkItemFlags, context: InjectionContext,
        work: () throws(Failure) -> T
    ) -> Result<T, Failure>

    /// Delivers `deliver` once `group` is empty, counting it from now.
    func notify(group: DispatchGroup, submission: Submission, deliver: @escaping @Sendable () -> Void)

    /// Counts `submission`, which runs where this object does not schedule it (an operation
    /// queue's thread, the main queue, a thread of its own), until its ticket says it has
    /// finished.
    func admit(_ submission: Submission) -> WorkTicket

    /// Counts one more unfinished piece of work; returns its id for ``end(_:)``.
    func begin(_ submission: Submission) -> UInt64

    /// Submission `id` now waits for `waiting`.
    func update(_ id: UInt64, to waiting: Submission.Waiting)

    /// Submission `id` has finished.
    func end(_ id: UInt64)

    /// An admitted piece of work has started on its thread (``WorkTicket/started()``).
    func started(_ id: UInt64)

    /// An admitted piece of work has finished (``WorkTicket/finished()``).
    func finished(_ id: UInt64)
}

extension CountedWork {
    /// `work`, carried in `context` and counted from now until it has run: work that runs
    /// where this object does not schedule it (an operation queue, the main queue).
    package func counted(
        _ context: InjectionContext, _ submission: Submission, _ work: @escaping @Sendable () -> Void
    ) -> @Sendable () -> Void {
        let ticket = admit(submission)
        return {
            ticket.started()
            context.run(work)
            ticket.finished()
        }
    }
}

/// A piece of work a ``CountedWork`` admitted: counted from ``CountedWork/admit(_:)`` until
/// ``finished()``.
@usableFromInline
package struct WorkTicket: Sendable {
    package let work: any CountedWork
    package let id: UInt64

    package init(work: any CountedWork, id: UInt64) {
        self.work = work
        self.id = id
    }

    /// The work has started on its thread.
    package func started() {
        work.started(id)
    }

    /// The work has finished (after ``started()``).
    package func finished() {
        work.finished(id)
    }
}
