// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Dispatch
import Foundation

// Why: a module with dozens of `queue.async { … }` calls loses the caller's injected values
// at each one unless every call is wrapped in `bind`. A queue that carries them is changed
// once, where it is declared.

/// A `DispatchQueue` whose every submission runs inside the submitter's scope: legacy code
/// changes the line that makes its queue, not the calls that use it.
///
/// ```swift
/// final class ReceiptStore {
///     // was: private let queue = DispatchQueue(label: "receipts")
///     private let queue = CarryingQueue(label: "receipts")
///
///     func save(_ receipt: String) {
///         queue.async {                                        // unchanged
///             Defaults.current.set(receipt, forKey: "last")    // the caller's Defaults
///         }
///     }
/// }
/// ```
///
/// It has the surface such code calls: `async` (with a group, a QoS, `.barrier`), `sync`,
/// `asyncAfter` and `concurrentPerform`. Each submission captures the caller's
/// ``InjectionContext`` and runs the work inside it, on Dispatch's threads, exactly as
/// `queue.async(execute: InjectionContext.current.bind { … })` would; a submission carries
/// its own submitter's scope, never a later one, so parallel tests that share one queue
/// object each see their own values. Outside any scope nothing is carried and the work runs
/// as Dispatch runs it.
///
/// What happens to the work is the scope's ``BackgroundQueue``: run (``BackgroundQueue/live``,
/// the default), counted until finished (`BackgroundQueue.tracked()`), or run in one
/// order a `TestClock` drives (`BackgroundQueue.driven(by:)`).
///
/// Work submitted through ``queue`` itself, or through other Dispatch queues, is not carried.
public final class CarryingQueue: Sendable, CustomStringConvertible {
    /// When deferred work runs, written as for Dispatch: `.now() + 5` (seconds),
    /// `.now() + .milliseconds(300)`; a delay from the moment of submission, so on a driven
    /// queue `.now()` is the test clock's time.
    public typealias Deadline = MainQueue.Deadline

    /// The Dispatch queue the work runs on when it runs live: for APIs that take a
    /// `DispatchQueue`. What is submitted to it directly is not carried.
    public let queue: DispatchQueue

    /// A queue like `DispatchQueue(label:qos:attributes:autoreleaseFrequency:target:)` makes:
    /// serial unless `attributes` has `.concurrent`.
    public init(
        label: String, qos: DispatchQoS = .unspecified, attributes: DispatchQueue.Attributes = [],
        autoreleaseFrequency: DispatchQueue.AutoreleaseFrequency = .inherit, target: DispatchQueue? = nil
    ) {
        queue = DispatchQueue(
            label: label, qos: qos, attributes: attributes, autoreleaseFrequency: autoreleaseFrequency, target: target)
    }

    /// A queue targeting another carrying queue's Dispatch queue: what
    /// `DispatchQueue(label:target:)` is in a module whose `DispatchQueue` is this type (the
    /// one-file port), where the target is a `DispatchQueue?` of the module's own.
    ///
    /// ```swift
    /// let logging = CarryingQueue(label: "log")
    /// let file = CarryingQueue(label: "log.file", target: logging)
    /// ```
    ///
    /// Disfavoured, so that `target: .global()` and `target: nil` keep meaning Dispatch's.
    @_disfavoredOverload
    public convenience init(
        label: String, qos: DispatchQoS = .unspecified, attributes: DispatchQueue.Attributes = [],
        autoreleaseFrequency: DispatchQueue.AutoreleaseFrequency = .inherit, target: CarryingQueue?
    ) {
        self.init(
            label: label, qos: qos, attributes: attributes, autoreleaseFrequency: autoreleaseFrequency,
            target: target?.queue)
    }

    /// Carries submissions to an existing Dispatch queue (`.global()`, a queue made elsewhere).
    public init(_ queue: DispatchQueue) {
        self.queue = queue
    }

    /// `DispatchQueue.global(qos:)`, carrying: where `BackgroundQueue.current`'s methods submit.
    public static func global(qos: DispatchQoS.QoSClass = .default) -> CarryingQueue {
        switch qos {
        case .userInteractive: return userInteractive
        case .userInitiated: return userInitiated
        case .utility: return utility
        case .background: return background
        default: return defaultGlobal
        }
    }

    private static let userInteractive = CarryingQueue(.global(qos: .userInteractive))
    private static let userInitiated = CarryingQueue(.global(qos: .userInitiated))
    private static let defaultGlobal = CarryingQueue(.global(qos: .default))
    private static let utility = CarryingQueue(.global(qos: .utility))
    private static let background = CarryingQueue(.global(qos: .background))

    /// The queue's label.
    public var label: String {
        queue.label
    }

    /// `CarryingQueue(label)`.
    public var description: String {
        "CarryingQueue(\(queue.label))"
    }

    /// `DispatchQueue.async(group:qos:flags:execute:)`: `work` runs on this queue (with
    /// `.barrier`, alone on a concurrent one), inside the caller's scope. The file and line
    /// name the submission in a report of work left pending; leave their defaults.
    public func async(
        group: DispatchGroup? = nil, qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
        fileID: StaticString = #fileID, line: UInt = #line,
        execute work: @escaping @Sendable () -> Void
    ) {
        let context = InjectionContext.current
        if let background = BackgroundQueue.current.work {
            background.async(
                on: queue, group: group, qos: qos, flags: flags, context: context,
                submission: Submission(call: "async", queue: self, fileID: fileID, line: line, waiting: .queued),
                work: work)
        } else {
            queue.async(group: group, qos: qos, flags: flags, execute: context.carrying(work))
        }
    }

    /// `DispatchQueue.async(execute:)` with a `DispatchWorkItem`: the item runs on this
    /// queue, inside the caller's scope, unless it is cancelled first; `wait()` and
    /// `notify(queue:execute:)` on the item work as they do with Dispatch.
    public func async(execute item: DispatchWorkItem, fileID: StaticString = #fileID, line: UInt = #line) {
        let item = WorkItem(item: item)
        async(fileID: fileID, line: line) { item.perform() }
    }

    /// `DispatchQueue.asyncAfter(deadline:qos:flags:execute:)`: `work` runs on this queue once
    /// `deadline` has come (on a driven queue: the test clock's), inside the caller's scope.
    public func asyncAfter(
        deadline: Deadline, qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
        fileID: StaticString = #fileID, line: UInt = #line,
        execute work: @escaping @Sendable () -> Void
    ) {
        guard deadline < Deadline.never else { return }
        let context = InjectionContext.current
        if let background = BackgroundQueue.current.work {
            background.asyncAfter(
                deadline.delay, on: queue, qos: qos, flags: flags, context: context,
                submission: Submission(call: "asyncAfter", queue: self, fileID: fileID, line: line, waiting: .queued),
                work: work)
        } else {
            queue.asyncAfter(
                deadline: .now() + deadline.delay.timeInterval, qos: qos, flags: flags,
                execute: context.carrying(work))
        }
    }

    /// `DispatchQueue.asyncAfter(deadline:execute:)` with a `DispatchWorkItem`: the item runs
    /// on this queue once `deadline` has come, inside the caller's scope, unless it is
    /// cancelled first (a debounce's `item.cancel()` works as with Dispatch).
    public func asyncAfter(
        deadline: Deadline, execute item: DispatchWorkItem, fileID: StaticString = #fileID, line: UInt = #line
    ) {
        let item = WorkItem(item: item)
        asyncAfter(deadline: deadline, fileID: fileID, line: line) { item.perform() }
    }

    /// `DispatchQueue.sync(execute:)`: runs `work` on this queue, inside the caller's scope,
    /// and returns what it returns once it has run. On a driven queue, after the work
    /// submitted before it (in place when called from that work).
    ///
    /// Dispatch runs a `sync` block on the calling thread whenever it can, and there the
    /// caller's scope is still the one bound: nothing is carried then, and the call costs what
    /// Dispatch's does. The context is entered only when Dispatch runs the block elsewhere.
    @inlinable
    public func sync<T, Failure: Error>(execute work: () throws(Failure) -> T) throws(Failure) -> T {
        try sync(flags: [], execute: work)
    }

    /// ``sync(execute:)->_`` for work that returns nothing and cannot throw, as most legacy
    /// `sync` blocks do: the block itself, with no result to keep.
    @inlinable
    public func sync(execute work: () -> Void) {
        _sync(flags: [], work)
    }

    /// `DispatchQueue.sync(flags:execute:)`: ``sync(execute:)->_`` with flags (`.barrier`).
    @inlinable
    public func sync<T, Failure: Error>(
        flags: DispatchWorkItemFlags, execute work: () throws(Failure) -> T
    ) throws(Failure) -> T {
        // Inlined, so the result's type is known where it is called: the generic part is this.
        var result: Result<T, Failure>?
        _sync(flags: flags) { result = Result(catching: work) }
        return try result!.get()
    }

    /// ``sync(flags:execute:)`` with its work's result already stored by `body`.
    @usableFromInline
    func _sync(flags: DispatchWorkItemFlags, _ body: () -> Void) {
        if let background = BackgroundQueue.current.work {
            background.sync(on: queue, flags: flags, context: .current, work: body).get()
            return
        }
        let context = InjectionContext.current
        if context.isEmpty {
            submit(flags, body)
            return
        }
        let caller = pthread_self()
        submit(flags) {
            if pthread_equal(pthread_self(), caller) != 0 { body() } else { context.run(body) }
        }
    }

    /// Dispatch's `sync` with `body`: its block form without flags, not its generic one (which
    /// costs more than the sync itself).
    private func submit(_ flags: DispatchWorkItemFlags, _ body: () -> Void) {
        if flags.isEmpty {
            queue.sync(execute: body)
        } else {
            queue.sync(flags: flags, execute: body)
        }
    }

    /// `DispatchQueue.concurrentPerform(iterations:execute:)`: `work` runs once per index, in
    /// parallel on Dispatch's threads, each inside the caller's scope; on a driven queue,
    /// one index after the other in order, on this thread. Returns when all have.
    public static func concurrentPerform(iterations: Int, execute work: (Int) -> Void) {
        if BackgroundQueue.current.work?.isDriven == true {
            for index in 0..<iterations { work(index) }
            return
        }
        let context = InjectionContext.current
        withoutActuallyEscaping(work) { work in
            // Dispatch returns only once every iteration has run, and runs them in parallel
            // by design: `work` neither outlives this call nor is sent anywhere it is not.
            nonisolated(unsafe) let work = work
            DispatchQueue.concurrentPerform(iterations: iterations) { index in
                context.run { work(index) }
            }
        }
    }
}

/// A `DispatchWorkItem` handed to a carrying queue. `@unchecked Sendable`: Dispatch documents
/// work items as safe to perform, cancel and wait for from any thread, but
/// swift-corelibs-libdispatch does not mark them `Sendable`.
private struct WorkItem: @unchecked Sendable {
    let item: DispatchWorkItem

    /// Runs the item as Dispatch would: a cancelled item returns at once, and its waiters
    /// and notifications are released either way.
    func perform() {
        item.perform()
    }
}

extension InjectionContext {
    /// `work`, to run inside this context wherever it is called; `work` itself when the
    /// context is empty (nothing to carry: the work runs as Dispatch runs it).
    func carrying(_ work: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        if isEmpty { return work }
        return { self.run(work) }
    }
}
