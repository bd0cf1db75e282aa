// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Dispatch
import Foundation

// Why: legacy code joins its background work with `group.notify(queue:)`; once its queues are
// carrying ones, the notification must be carried and counted too, or its result arrives
// after the test's wait has returned.

extension DispatchGroup {
    /// `notify(qos:flags:queue:execute:)` on a ``CarryingQueue``: once every piece of work
    /// in the group has left it, `work` runs on `queue` inside the scope that asked for the
    /// notification (not the scope that emptied the group).
    ///
    /// ```swift
    /// let group = DispatchGroup()
    /// for account in accounts { queue.async(group: group) { fetch(account) } }
    /// group.notify(queue: queue) { Logger.current.info("all fetched") }   // the caller's Logger
    /// ```
    ///
    /// Under a tracked or driven ``BackgroundQueue`` the notification is counted from this
    /// call until its work has run, so `finished()` waits for it; driven, a group that driven
    /// work empties delivers before that work lets the test clock move on, so an `advance`
    /// returns once the notification's work has run. Disfavoured, so that
    /// `group.notify(queue: .global())` still means Dispatch's queue, as it did.
    @_disfavoredOverload
    public func notify(
        qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], queue: CarryingQueue,
        fileID: StaticString = #fileID, line: UInt = #line,
        execute work: @escaping @Sendable () -> Void
    ) {
        let context = InjectionContext.current
        guard let background = BackgroundQueue.current.work else {
            notify(qos: qos, flags: flags, queue: queue.queue, execute: context.carrying(work))
            return
        }
        let submission = Submission(call: "notify", queue: queue, fileID: fileID, line: line, waiting: .group)
        // The flags as their raw value: `DispatchWorkItemFlags` is not marked `Sendable`.
        let flags = flags.rawValue
        background.notify(group: self, submission: submission) {
            context.run {
                queue.async(
                    qos: qos, flags: DispatchWorkItemFlags(rawValue: flags), fileID: fileID, line: line, execute: work)
            }
        }
    }

    /// `notify(queue: .main, execute:)` for code that reads the main queue as
    /// `MainQueue.current`: once the group is empty, `work` runs on the main actor inside
    /// the scope that asked for the notification, on the live main queue or a driven one.
    ///
    /// ```swift
    /// group.notify(queue: MainQueue.current) { self.inboxView.reload() }
    /// ```
    ///
    /// Counted, under a tracked or driven ``BackgroundQueue``, as
    /// ``notify(qos:flags:queue:fileID:line:execute:)`` is.
    public func notify(
        queue: MainQueue, fileID: StaticString = #fileID, line: UInt = #line,
        execute work: @escaping @MainActor @Sendable () -> Void
    ) {
        let context = InjectionContext.current
        let deliver: @Sendable () -> Void = {
            context.run { queue.async(fileID: fileID, line: line, execute: work) }
        }
        guard let background = BackgroundQueue.current.work else {
            notify(queue: .global(), execute: deliver)
            return
        }
        background.notify(
            group: self,
            submission: Submission(
                call: "notify(queue: MainQueue)", queue: nil, fileID: fileID, line: line, waiting: .group),
            deliver: deliver)
    }
}

extension DispatchWorkItem {
    /// `notify(qos:flags:queue:execute:)` on a ``CarryingQueue``: once this item has run (or
    /// been cancelled), `work` runs on `queue` inside the scope that asked for the notification,
    /// counted under a tracked or driven ``BackgroundQueue`` as a group's notification is.
    ///
    /// ```swift
    /// let save = DispatchWorkItem { store.save() }
    /// save.notify(queue: queue) { Logger.current.info("saved") }   // the caller's Logger
    /// queue.async(execute: save)
    /// ```
    ///
    /// Disfavoured, so that `item.notify(queue: .global())` still means Dispatch's queue.
    @_disfavoredOverload
    public func notify(
        qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], queue: CarryingQueue,
        fileID: StaticString = #fileID, line: UInt = #line,
        execute work: @escaping @Sendable () -> Void
    ) {
        // The item's completion, as a group that it leaves: the group's carried, counted path.
        let group = DispatchGroup()
        group.enter()
        notify(queue: .global()) { group.leave() }
        group.notify(qos: qos, flags: flags, queue: queue, fileID: fileID, line: line, execute: work)
    }
}
