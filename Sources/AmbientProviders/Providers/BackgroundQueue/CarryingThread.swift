// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: a thread legacy code starts begins with nothing bound; this one begins inside the
// scope that made it.

/// A `Thread` whose block runs inside the scope that made it: legacy code changes
/// `Thread { … }` to `CarryingThread { … }` and nothing else.
///
/// ```swift
/// // was: let worker = Thread { drainQueue() }
/// let worker = CarryingThread { drainQueue() }    // drainQueue() sees the caller's values
/// worker.name = "drain"
/// worker.start()
/// ```
///
/// Under a tracked or driven ``BackgroundQueue`` the thread's work is counted from `start()`
/// until its block returns, so
/// ``BackgroundQueue/finished(timeout:fileID:filePath:line:column:)`` waits for it. (On
/// Linux's Foundation `Thread` cannot be subclassed: this wraps one, ``thread``.)
public final class CarryingThread: @unchecked Sendable {
    // @unchecked: `thread` is only handed out and started; Foundation's `Thread` is
    // thread-safe for those, though not marked `Sendable`.

    /// The Foundation thread, for what this type does not forward.
    public let thread: Thread
    private let pending: Locked<BackgroundWork?>
    private let work: BackgroundWork?

    /// A thread that will run `block` inside the current scope once started.
    public init(block: @escaping @Sendable () -> Void) {
        let context = InjectionContext.current
        let work = BackgroundQueue.current.state.object
        // The work is counted when the thread starts; the block ends the count.
        let pending = Locked<BackgroundWork?>(nil)
        thread = Thread {
            context.run(block)
            pending.withLock { $0 }?.end()
        }
        self.pending = pending
        self.work = work
    }

    /// Starts a thread that runs `block` inside the current scope.
    public static func detachNewThread(_ block: @escaping @Sendable () -> Void) {
        CarryingThread(block: block).start()
    }

    /// Starts the thread (once).
    public func start() {
        if let work {
            work.begin()
            pending.withLock { $0 = work }
        }
        thread.start()
    }

    /// The thread's name.
    public var name: String? {
        get { thread.name }
        set { thread.name = newValue }
    }

    /// The thread's stack size, in bytes; set it before `start()`.
    public var stackSize: Int {
        get { thread.stackSize }
        set { thread.stackSize = newValue }
    }

    /// Asks the thread to stop: its block reads `isCancelled`.
    public func cancel() {
        thread.cancel()
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool {
        thread.isCancelled
    }

    /// Whether the block has returned.
    public var isFinished: Bool {
        thread.isFinished
    }
}
