// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: `OperationQueue` work loses the caller's injected values as Dispatch work does; the
// queue that carries them is changed where it is made.

/// An `OperationQueue` whose blocks run inside the scope that added them: legacy code
/// changes the line that makes its queue, not the calls that use it.
///
/// ```swift
/// // was: let uploads = OperationQueue()
/// let uploads = CarryingOperationQueue()
/// uploads.addOperation { Logger.current.info("uploading") }    // the caller's Logger
/// ```
///
/// `addOperation(_:)` with a block and `addBarrierBlock(_:)` carry the caller's scope, and
/// so does a ``CarryingOperation`` added with `addOperation(_:)` or
/// `addOperations(_:waitUntilFinished:)`: it runs in the scope it was added from. Another
/// `Operation` subclass runs as the queue runs it, uncarried (make it a
/// `CarryingOperation`, one word where it is declared). Under a tracked or driven
/// ``BackgroundQueue`` the carried work is counted until it has run, so
/// ``BackgroundQueue/finished(timeout:fileID:filePath:line:column:)`` waits for it; it runs
/// on this queue's threads in either case, in the order the queue gives it (for one piece
/// at a time, set `maxConcurrentOperationCount` to 1).
open class CarryingOperationQueue: OperationQueue, @unchecked Sendable {
    // @unchecked: OperationQueue is thread-safe (Foundation documents it) and this subclass
    // adds no state.

    /// Adds `block` as an operation that runs inside the caller's scope.
    open override func addOperation(_ block: @escaping @Sendable () -> Void) {
        super.addOperation(Self.carried(block))
    }

    /// Adds `barrier`, which runs alone once the operations added before it have finished,
    /// inside the caller's scope.
    open override func addBarrierBlock(_ barrier: @escaping @Sendable () -> Void) {
        super.addBarrierBlock(Self.carried(barrier))
    }

    /// Adds `operation`; a ``CarryingOperation`` runs inside the caller's scope.
    open override func addOperation(_ operation: Operation) {
        Self.carry(operation)
        super.addOperation(operation)
    }

    /// Adds `operations`; each ``CarryingOperation`` among them runs inside the caller's scope.
    open override func addOperations(_ operations: [Operation], waitUntilFinished wait: Bool) {
        operations.forEach(Self.carry)
        super.addOperations(operations, waitUntilFinished: wait)
    }

    private static func carried(_ block: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        let context = InjectionContext.current
        if let background = BackgroundQueue.current.state.object { return background.counted(context, block) }
        return context.carrying(block)
    }

    private static func carry(_ operation: Operation) {
        guard let operation = operation as? CarryingOperation else { return }
        operation.carry(InjectionContext.current, counting: BackgroundQueue.current.state.object)
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
    // @unchecked: `carried` and `counting` are written before the operation is queued (by
    // `init`, then by the queue's `addOperation`) and read when it starts, which the queue
    // orders after.
    private nonisolated(unsafe) var carried = InjectionContext.current
    private nonisolated(unsafe) var counting: BackgroundWork?

    /// Makes the operation, inside the current scope until a carrying queue adds it.
    public override init() {
        super.init()
    }

    /// Called by ``CarryingOperationQueue`` as it adds the operation: the adder's scope,
    /// and the tracked or driven work that counts it until it has run.
    func carry(_ context: InjectionContext, counting work: BackgroundWork?) {
        carried = context
        counting?.end()
        counting = work
        work?.begin()
    }

    /// Runs the operation (`main()`) inside its scope.
    open override func start() {
        carried.run { super.start() }
        counting?.end()
        counting = nil
    }
}
