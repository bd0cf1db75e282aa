// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: `OperationQueue` work loses the caller's injected values as Dispatch work does; the
// queue that carries them is changed where it is made.

/// An `OperationQueue` whose operations run inside the scope that added them: legacy code
/// changes the line that makes its queue, not the calls that use it.
///
/// ```swift
/// // was: let uploads = OperationQueue()
/// let uploads = CarryingOperationQueue()
/// uploads.addOperation { Logger.current.info("uploading") }    // the caller's Logger
/// ```
///
/// Everything added carries the adder's scope: a block (`addOperation(_:)`,
/// `addBarrierBlock(_:)`), a `BlockOperation` or any other synchronous `Operation`
/// (`addOperation(_:)`, `addOperations(_:waitUntilFinished:)`), with its dependencies and
/// its `completionBlock`, and a ``CarryingOperation``. An operation that is not a
/// ``CarryingOperation`` is started, once its dependencies have finished, by a carrier
/// operation the queue runs in its place, so `operations` lists the carrier; set its
/// dependencies before adding it. An asynchronous operation (`isAsynchronous`) runs as the
/// queue runs it, uncarried: make it a ``CarryingOperation``.
///
/// Under a tracked or driven ``BackgroundQueue`` each operation and completion block is
/// counted until it has run, so
/// `BackgroundQueue.finished(timeout:)` waits for it, and on a
/// driven one it holds the test clock too, so `advance` waits for it. It runs on this
/// queue's threads in either case, in the order the queue gives it (for one piece at a
/// time, set `maxConcurrentOperationCount` to 1).
open class CarryingOperationQueue: OperationQueue, @unchecked Sendable {
    // @unchecked: OperationQueue is thread-safe (Foundation documents it) and this subclass
    // adds no state.

    /// Adds `block` as an operation that runs inside the caller's scope.
    open override func addOperation(_ block: @escaping @Sendable () -> Void) {
        super.addOperation(Self.carried(block, call: "addOperation"))
    }

    /// Adds `barrier`, which runs alone once the operations added before it have finished,
    /// inside the caller's scope.
    open override func addBarrierBlock(_ barrier: @escaping @Sendable () -> Void) {
        super.addBarrierBlock(Self.carried(barrier, call: "addBarrierBlock"))
    }

    /// Adds `operation`, which runs inside the caller's scope.
    open override func addOperation(_ operation: Operation) {
        super.addOperation(Self.carry(operation))
    }

    /// Adds `operations`, each of which runs inside the caller's scope.
    open override func addOperations(_ operations: [Operation], waitUntilFinished wait: Bool) {
        super.addOperations(operations.map(Self.carry), waitUntilFinished: wait)
    }

    private static func carried(_ block: @escaping @Sendable () -> Void, call: StaticString) -> @Sendable () -> Void {
        let context = InjectionContext.current
        if let background = BackgroundQueue.current.work {
            return background.counted(context, Submission(operation: call), block)
        }
        return context.carrying(block)
    }

    /// What the queue runs for `operation`: the operation itself when it carries its scope
    /// (a ``CarryingOperation``) or cannot be carried (an asynchronous one), a carrier that
    /// starts it otherwise. Its completion block is carried either way.
    private static func carry(_ operation: Operation) -> Operation {
        if let completion = operation.completionBlock {
            let completion = UncheckedBlock(run: completion)
            operation.completionBlock = carried({ completion.run() }, call: "completionBlock")
        }
        if let operation = operation as? CarryingOperation {
            operation.carry(InjectionContext.current, counting: BackgroundQueue.current.work)
            return operation
        }
        if operation.isAsynchronous { return operation }
        let carrier = OperationCarrier(operation)
        carrier.carry(InjectionContext.current, counting: BackgroundQueue.current.work)
        return carrier
    }
}

/// A block Foundation types as neither `Sendable` nor main-actor (an operation's
/// `completionBlock`): Foundation runs it on a thread of its own choosing, as this does.
private struct UncheckedBlock: @unchecked Sendable {
    let run: () -> Void
}

/// Starts an operation that does not carry its scope (a `BlockOperation`, an `Operation`
/// subclass), inside the scope it was added from, once its dependencies have finished;
/// cancelling either cancels both, and the operation still finishes, so its dependents run.
final class OperationCarrier: CarryingOperation, @unchecked Sendable {
    // @unchecked: `operation` is set once, in `init`; Foundation's operations are thread-safe.
    let operation: Operation

    init(_ operation: Operation) {
        self.operation = operation
        super.init()
        for dependency in operation.dependencies { addDependency(dependency) }
        queuePriority = operation.queuePriority
        name = operation.name
    }

    override func main() {
        // Both this carrier and the operation depend on the operation's dependencies, and
        // Foundation marks each dependent ready in turn as the last of them finishes: this
        // one may start a moment before the operation is marked. That thread is already
        // marking it, so the wait is short.
        while !operation.isReady && !operation.isCancelled { sched_yield() }
        operation.start()
    }

    override func cancel() {
        operation.cancel()
        super.cancel()
    }

    override func start() {
        // A cancelled carrier still starts its operation, which then finishes at once as a
        // cancelled operation does: its dependents are not left waiting for it.
        if isCancelled { carried.run { operation.start() } }
        super.start()
    }
}

/// An `Operation` whose work runs inside a scope: the one it is added from when a
/// ``CarryingOperationQueue`` runs it, else the one it was made in. Subclass it where the
/// code subclassed `Operation`; `main()` is overridden as for `Operation`.
///
/// ```swift
/// // was: final class SyncOperation: Operation {
/// final class SyncOperation: CarryingOperation, @unchecked Sendable {
///     override func main() { Defaults.current.set(true, forKey: "synced") }   // the scope's Defaults
/// }
/// ```
///
/// It carries the scope around `start()`, so an operation that overrides `start()` (an
/// asynchronous one) calls `super.start()` or runs uncarried.
open class CarryingOperation: Operation, @unchecked Sendable {
    // @unchecked: `carried` and `ticket` are written before the operation is queued (by
    // `init`, then by the queue's `addOperation`) and read when it starts, which the queue
    // orders after.
    fileprivate nonisolated(unsafe) var carried = InjectionContext.current
    private nonisolated(unsafe) var ticket: WorkTicket?

    /// Makes the operation, inside the current scope until a carrying queue adds it.
    public override init() {
        super.init()
    }

    /// Called by ``CarryingOperationQueue`` as it adds the operation: the adder's scope,
    /// and the tracked or driven work that counts it until it has run.
    func carry(_ context: InjectionContext, counting work: (any CountedWork)?) {
        carried = context
        if let replaced = ticket {
            replaced.started()
            replaced.finished()
        }
        ticket = work?.admit(Submission(operation: "addOperation"))
    }

    /// Runs the operation (`main()`) inside its scope.
    open override func start() {
        let ticket = self.ticket
        self.ticket = nil
        ticket?.started()
        carried.run { super.start() }
        ticket?.finished()
    }
}
