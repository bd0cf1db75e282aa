// SPDX-License-Identifier: Apache-2.0

#if Vapor
import Ambient
import Dispatch
import NIOCore

// Why: NIO runs future callbacks on the event loop, outside any task: this loop runs each with the request's values.

/// An event loop that runs everything with `context`'s values current: the tasks it is
/// given and the callbacks of the futures made on it.
///
/// It runs on `base`'s thread, in `base`'s order. It answers `inEventLoop` only while it is
/// running one of its own tasks, so a future made on it that completes anywhere else — on
/// `base` in another request's code, on another loop — runs its callbacks through
/// ``execute(_:)``, with the values bound, instead of inline.
///
/// ```swift
/// let loop = BoundEventLoop(request.eventLoop, context: .current)
/// loop.submit { Clock.current.now }.map { now in Clock.current.now == now }  // both bound
/// ```
///
/// ``Vapor/Request/ambientEventLoop`` is one, made per request by `AmbientMiddleware`.
public final class BoundEventLoop: EventLoop, CustomStringConvertible {
    /// The loop that runs the work.
    public let base: any EventLoop
    /// The values current for everything this loop runs.
    public let context: InjectionContext
    /// How many of this loop's tasks are running on `base`'s thread (nested when one runs
    /// another's callbacks inline). Read and written only on `base`'s thread.
    nonisolated(unsafe) private var running = 0

    /// A loop running on `base` with `context`'s values.
    public init(_ base: any EventLoop, context: InjectionContext) {
        self.base = base
        self.context = context
    }

    /// Whether the caller runs inside one of this loop's tasks.
    public var inEventLoop: Bool {
        base.inEventLoop && running > 0  // `running` only read on base's thread
    }

    /// Runs `task` on `base`, with the values bound.
    public func execute(_ task: @escaping @Sendable () -> Void) {
        base.execute { self.runBound(task) }
    }

    /// Runs `task` at `deadline` on `base`, with the values bound.
    public func scheduleTask<T>(deadline: NIODeadline, _ task: @escaping @Sendable () throws -> T) -> Scheduled<T> {
        let promise = makePromise(of: T.self)
        // `T` need not be `Sendable` (NIO's own loops take any): the promise is completed
        // on `base`'s thread, which is where a future of this loop lives.
        let unchecked = UncheckedPromise(promise: promise)
        let scheduled = base.scheduleTask(deadline: deadline) {
            self.runBound {
                // Inside this loop's task, on `base`'s thread: isolated to this loop.
                let promise = unchecked.promise.assumeIsolated()
                do { promise.succeed(try task()) } catch { unchecked.promise.fail(error) }
            }
        }
        return Scheduled(promise: promise) { scheduled.cancel() }
    }

    /// Runs `task` after `amount` on `base`, with the values bound.
    public func scheduleTask<T>(in amount: TimeAmount, _ task: @escaping @Sendable () throws -> T) -> Scheduled<T> {
        scheduleTask(deadline: .now() + amount, task)
    }

    /// `base`'s check: the caller is on `base`'s thread.
    public func preconditionInEventLoop(file: StaticString, line: UInt) {
        base.preconditionInEventLoop(file: file, line: line)
    }

    /// `base`'s check: the caller is not on `base`'s thread.
    public func preconditionNotInEventLoop(file: StaticString, line: UInt) {
        base.preconditionNotInEventLoop(file: file, line: line)
    }

    /// A bound loop does not shut its base down: `callback` gets
    /// `EventLoopError.unsupportedOperation`.
    public func shutdownGracefully(queue: DispatchQueue, _ callback: @escaping @Sendable (Error?) -> Void) {
        queue.async { callback(EventLoopError.unsupportedOperation) }
    }

    /// `BoundEventLoop(base)`.
    public var description: String {
        "BoundEventLoop(\(base))"
    }

    private func runBound(_ task: () -> Void) {
        running += 1
        defer { running -= 1 }
        context.run(task)
    }
}

/// A promise completed on its own loop's thread: it crosses no thread, whatever its value.
private struct UncheckedPromise<T>: @unchecked Sendable {
    let promise: EventLoopPromise<T>
}

// `running` is only touched on `base`'s thread (see `inEventLoop`); everything else is
// immutable.
extension BoundEventLoop: @unchecked Sendable {}
#endif
