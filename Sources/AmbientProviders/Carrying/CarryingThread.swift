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
/// A block that polls until it is cancelled takes the thread as its argument (or reads
/// `Thread.current.isCancelled`); ``cancel()`` also wakes a blocking
/// `Clock.current.sleep(for:)` the block is in, which then throws `CancellationError`:
///
/// ```swift
/// let watchdog = CarryingThread { thread in
///     while !thread.isCancelled {
///         try? Clock.current.sleep(for: .seconds(10))   // was: Thread.sleep(forTimeInterval: 10)
///         checkStalledSyncs()
///     }
/// }
/// watchdog.start()
/// …
/// watchdog.cancel()    // wakes the sleep at once, on the live clock and a test clock alike
/// ```
///
/// Under a tracked or driven ``BackgroundQueue`` the thread's work is counted from `start()`
/// until its block returns, so
/// `BackgroundQueue.finished(timeout:)` waits for it (and says
/// at once when the block is asleep on the test clock, which only the test can move). On a
/// driven queue the thread starts at `start()`, as any thread does, and holds its test clock
/// whenever it runs: an `advance` waits until the block is asleep on that clock again, or has
/// returned, before it moves time, so a watchdog that polls the test clock runs at each
/// deadline it sleeps to. (On Linux's Foundation `Thread` cannot be subclassed: this wraps
/// one, ``thread``.)
public final class CarryingThread: @unchecked Sendable {
    // @unchecked: `thread` is only handed out and started; Foundation's `Thread` is
    // thread-safe for those, though not marked `Sendable`. `state` is a `Locked`.

    /// The Foundation thread, for what this type does not forward.
    public let thread: Thread
    private let running: Running
    private let work: (any CountedWork)?

    /// A thread that will run `block` inside the current scope once started.
    public convenience init(
        fileID: StaticString = #fileID, line: UInt = #line, block: @escaping @Sendable () -> Void
    ) {
        self.init(fileID: fileID, line: line) { (_: CarryingThread) in block() }
    }

    /// A thread that will run `block` inside the current scope once started, handing it this
    /// thread: the block reads its own ``isCancelled``.
    public init(
        fileID: StaticString = #fileID, line: UInt = #line, block: @escaping @Sendable (CarryingThread) -> Void
    ) {
        let context = InjectionContext.current
        // A tracked or driven queue counts the thread; else, in a test, the test's own count.
        let work = BackgroundQueue.current.work ?? IssueReporter.current.pendingWork?.workOutsideQueues
        let running = Running(
            submission: Submission(call: "CarryingThread", queue: nil, fileID: fileID, line: line, waiting: .queued))
        thread = Thread {
            running.run { thread in context.run { block(thread) } }
        }
        self.running = running
        self.work = work
    }

    /// Starts a thread that runs `block` inside the current scope.
    public static func detachNewThread(
        fileID: StaticString = #fileID, line: UInt = #line, _ block: @escaping @Sendable () -> Void
    ) {
        CarryingThread(fileID: fileID, line: line, block: block).start()
    }

    /// Starts the thread (once).
    public func start() {
        running.starting(self, countedBy: work)
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

    /// Asks the thread to stop: its block reads ``isCancelled`` (or
    /// `Thread.current.isCancelled`), and a blocking `Clock.current.sleep` it is in wakes
    /// and throws `CancellationError`.
    public func cancel() {
        thread.cancel()
        running.cancel()
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

extension CarryingThread {
    /// A started thread's state, as its block and a blocking sleep in it see it: the count
    /// that waits for it, and the cancellation that wakes its sleep.
    package final class Running: Sendable {
        private struct State: Sendable {
            /// Set by `start()`, dropped when the block returns (the block's argument).
            var thread: CarryingThread?
            var ticket: WorkTicket?
            var cancelled = false
            /// Wakes the blocking sleep the thread is in.
            var wake: (@Sendable () -> Void)?
        }

        private let submission: Submission
        private let state = Locked(State())

        init(submission: Submission) {
            self.submission = submission
        }

        /// `start()` was called: counted by `work` from now.
        func starting(_ thread: CarryingThread, countedBy work: (any CountedWork)?) {
            let ticket = work?.admit(submission)
            state.withLock { state in
                state.thread = thread
                state.ticket = ticket
            }
        }

        /// Runs the block on the new thread, with this state as the thread's.
        func run(_ block: (CarryingThread) -> Void) {
            let (thread, ticket) = state.withLock { ($0.thread, $0.ticket) }
            ticket?.started()
            Self.current = Unmanaged.passUnretained(self)
            if let thread { block(thread) }
            Self.current = nil
            state.withLock { state in
                state.thread = nil
                state.ticket = nil
            }
            ticket?.finished()
        }

        /// Cancels the thread, and wakes the sleep it is in: its count is then running again
        /// (so a `finished()` that follows waits for the block to return). The count is
        /// updated under this state's lock, as ``sleeping(asleep:wakingWith:_:)`` updates
        /// it, so the two never cross.
        func cancel() {
            let wake = state.withLock { state -> (@Sendable () -> Void)? in
                state.cancelled = true
                guard let wake = state.wake else { return nil }
                state.wake = nil
                if let ticket = state.ticket { ticket.work.update(ticket.id, to: .running) }
                return wake
            }
            wake?()
        }

        var isCancelled: Bool {
            state.withLock { $0.cancelled }
        }

        /// The count this thread's work is in, if any.
        package var ticket: WorkTicket? {
            state.withLock { $0.ticket }
        }

        /// Runs `sleep` (which blocks) with `wake` called if the thread is cancelled
        /// meanwhile: at once if it already is. With `asleep` (until a test clock's instant,
        /// or a real-time one), the thread's count says so while it sleeps.
        package func sleeping(
            asleep waiting: Submission.Waiting? = nil, wakingWith wake: @escaping @Sendable () -> Void,
            _ sleep: () -> Void
        ) {
            let cancelled = state.withLock { state -> Bool in
                guard !state.cancelled else { return true }
                state.wake = wake
                if let waiting, let ticket = state.ticket { ticket.work.update(ticket.id, to: waiting) }
                return false
            }
            if cancelled { wake() }
            sleep()
            state.withLock { state in
                guard state.wake != nil else { return }  // `cancel()` took it, and updated the count
                state.wake = nil
                if waiting != nil, let ticket = state.ticket { ticket.work.update(ticket.id, to: .running) }
            }
        }

        /// The sleep the thread is in has ended, and the thread is about to be woken: its
        /// count says it runs again from here, before the thread itself gets to run (a wait
        /// that follows the wake-up waits for the thread rather than finding it asleep).
        package func woke() {
            state.withLock { state in
                guard state.wake != nil, let ticket = state.ticket else { return }
                ticket.work.update(ticket.id, to: .running)
            }
        }

        // MARK: The running thread's

        private static let slot = ThreadSlot<Running>("CarryingThread")

        /// The state of the `CarryingThread` whose block runs on this thread, if any
        /// (unretained: the running block keeps it alive while it is set).
        package static var current: Unmanaged<Running>? {
            get { slot.current }
            set { slot.current = newValue }
        }
    }
}
