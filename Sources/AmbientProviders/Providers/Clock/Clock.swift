// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: `Date()` and `Task.sleep` are singletons too: code reads the ambient clock instead.

/// The ambient clock: wall time, monotonic time and sleeping, replaceable in tests.
///
/// Read it where code used to call `Date()` or `Task.sleep`:
///
/// ```swift
/// func isOverdue(_ reminder: Reminder) -> Bool {
///     reminder.due < Clock.current.now
/// }
///
/// func retry(_ work: () async throws -> Void) async throws {
///     for attempt in 1...3 {
///         do { return try await work() } catch {
///             try await Clock.current.sleep(for: .seconds(attempt))
///         }
///     }
/// }
/// ```
///
/// and inject a fake in tests:
///
/// | clock | time | `sleep` |
/// | --- | --- | --- |
/// | ``live`` | the system's (`Date()`, `ContinuousClock`) | really sleeps |
/// | ``fixed(_:)`` | stands still | returns at once |
/// | ``immediate(start:)`` | moves only by what sleeps ask for | returns at once, advancing time |
/// | `TestClock.clock` | moves when the test says (`TestClock.advance(by:)`) | suspends until then |
/// | ``init(_:wallTimeAtStart:)`` | any `Swift.Clock` you already have | that clock's |
///
/// Every `sleep` honours cancellation: a cancelled task's sleep throws `CancellationError`.
///
/// ## Where a `Swift.Clock` is expected
/// ``monotonic`` is this clock as a `Swift.Clock` (its ``Instant`` is monotonic):
///
/// ```swift
/// try await Task.sleep(for: .seconds(1), clock: Clock.current.monotonic)
/// ```
public struct Clock: AmbientValue, CustomStringConvertible {
    /// The live and fixed clocks are plain cases, so copying them (every read of
    /// `Clock.current`) copies a few bytes and touches no reference count; any other
    /// backend sits behind one reference, so a `Clock` is 9 bytes and copying one never
    /// copies an existential (the benchmark row "read: never injected (fast path)").
    @usableFromInline
    enum Storage: Sendable {
        case live
        case fixed(Date)
        case backend(Box)
    }

    /// Any other backend, boxed.
    @usableFromInline
    final class Box: Sendable {
        let backend: any ClockBackend
        /// A test clock's count of the work it causes, found once here: the global-enqueue
        /// hook asks for it for every job enqueued inside a scope this clock is injected in.
        let jobCounter: (any JobCounter)?
        init(_ backend: any ClockBackend) {
            self.backend = backend
            self.jobCounter = backend.jobCounter
        }
    }

    @usableFromInline
    let storage: Storage

    package init(backend: any ClockBackend) {
        self.storage = .backend(Box(backend))
    }

    @usableFromInline
    init(_ storage: Storage) {
        self.storage = storage
    }

    /// Whether this is the live clock (``live``), which carrying never sends.
    package var isLive: Bool {
        if case .live = storage { return true }
        return false
    }

    /// The job count of the test clock this clock belongs to, if it does.
    package var jobCounter: (any JobCounter)? {
        if case .backend(let box) = storage { return box.jobCounter }
        return nil
    }

    var backend: any ClockBackend {
        switch storage {
        case .live: LiveClockBackend.shared
        case .fixed(let date): FixedClockBackend(date: date)
        case .backend(let box): box.backend
        }
    }

    /// The current wall-clock time (what `Date()` returns on the live clock).
    public var now: Date {
        switch storage {
        case .live: Date()
        case .fixed(let date): date
        case .backend(let box): box.backend.now
        }
    }

    /// The current monotonic instant: use it to measure elapsed time, never to tell the
    /// time of day. Instants from different clocks are not comparable.
    ///
    /// ```swift
    /// let start = Clock.current.instant
    /// doWork()
    /// let elapsed = start.duration(to: Clock.current.instant)
    /// ```
    public var instant: Instant {
        Instant(offset: backend.elapsed)
    }

    /// Suspends for `duration` of this clock's time. Throws `CancellationError` if the
    /// task is or becomes cancelled.
    public func sleep(for duration: Duration) async throws {
        try await sleep(until: instant.advanced(by: duration))
    }

    /// Suspends until this clock reaches `deadline` (at once if it has). Throws
    /// `CancellationError` if the task is or becomes cancelled.
    public func sleep(until deadline: Instant) async throws {
        try Task.checkCancellation()
        try await backend.sleep(until: deadline.offset)
    }

    /// Blocks the calling thread for `duration` of this clock's time: the synchronous
    /// form of `sleep(for:)`, for code that used `Thread.sleep(forTimeInterval:)`
    /// (a GCD retry loop, a worker thread). The compiler picks it in synchronous code;
    /// from async code it is unavailable (blocking a thread of the concurrency pool
    /// starves it), and the async form is used.
    ///
    /// ```swift
    /// func fetchWithRetries(_ fetch: () -> Data?) throws -> Data? {
    ///     for attempt in 1...3 {
    ///         if let data = fetch() { return data }
    ///         try Clock.current.sleep(for: .seconds(attempt))   // was: Thread.sleep(forTimeInterval:)
    ///     }
    ///     return nil
    /// }
    /// ```
    ///
    /// The live clock blocks the thread; ``fixed(_:)`` and ``immediate(start:)`` return at
    /// once (the immediate clock moves its time forward); a `TestClock` blocks the thread
    /// until the test advances time past the deadline, and counts it among its
    /// `TestClock.sleepers`. A wrapped `Swift.Clock` sleeps on that clock while the thread
    /// waits.
    ///
    /// A `TestClock` or a wrapped `Swift.Clock` can only sleep asynchronously, so from
    /// synchronous code that a task runs (a synchronous `@Test`, a `Task { }` body, what
    /// they call) this throws ``BlockingSleepInsideATask`` at once instead of blocking a
    /// thread of the concurrency pool — where a test clock nobody else can advance would
    /// wait forever. The same policy as the blocking `withInjectedProcessWide`.
    ///
    /// - Throws: `CancellationError` if the calling code runs in a task that is cancelled, or
    ///   on a ``CarryingThread`` whose `cancel()` was called (checked before and after
    ///   sleeping; `cancel()` wakes the sleep); a thread of another kind outside any task is
    ///   never cancelled;
    ///   ``BlockingSleepInsideATask`` as above.
    @available(*, noasync, message: "it blocks the thread; in async code use `try await sleep(for:)`")
    public func sleep(for duration: Duration) throws {
        try sleep(until: instant.advanced(by: duration))
    }

    /// Blocks the calling thread until this clock reaches `deadline` (at once if it has):
    /// the synchronous form of `sleep(until:)`.
    @available(*, noasync, message: "it blocks the thread; in async code use `try await sleep(until:)`")
    public func sleep(until deadline: Instant) throws {
        try Self.checkCancellation()
        if backend.blockingSleepNeedsTheConcurrencyPool, withUnsafeCurrentTask(body: { $0 != nil }) {
            throw BlockingSleepInsideATask(clock: description)
        }
        backend.blockingSleep(until: deadline.offset)
        try Self.checkCancellation()
    }

    /// The blocking `sleep(for:)` of a clock that can only sleep asynchronously (a
    /// `TestClock`'s, a wrapped `Swift.Clock`), called from synchronous code that a task
    /// runs: waiting would block a thread of the concurrency pool, which the sleep itself
    /// needs. Thrown at once; nothing slept.
    public struct BlockingSleepInsideATask: Error, CustomStringConvertible {
        /// The clock, as it describes itself.
        public let clock: String

        /// What happened, and the two ways out.
        public var description: String {
            """
            \(clock).sleep(for:), the blocking form, was called from inside a Swift task (a synchronous \
            @Test function, a Task { } body, or code it calls): this clock can only sleep asynchronously, and \
            waiting for it there blocks a thread of the concurrency pool (a TestClock that the blocked test \
            cannot advance would wait forever). Make the caller async and write \
            `try await Clock.current.sleep(for:)`, or call the blocking form from a thread of your own \
            (a Thread, a DispatchQueue).
            """
        }
    }

    /// Throws `CancellationError` if the running synchronous code is part of a cancelled task,
    /// or runs on a ``CarryingThread`` that was cancelled.
    private static func checkCancellation() throws {
        if withUnsafeCurrentTask(body: { $0?.isCancelled ?? false }) { throw CancellationError() }
        if CarryingThread.Running.current?.takeUnretainedValue().isCancelled == true { throw CancellationError() }
    }

    /// This clock as a `Swift.Clock`, for APIs that take one.
    public var monotonic: Monotonic {
        Monotonic(clock: self)
    }

    /// The system clock: `Date()` for wall time, `ContinuousClock` for instants and sleeps.
    public static let live = Clock(.live)

    /// The live clock: what ``AmbientValue/current`` returns when nothing is injected.
    ///
    /// Inlinable, and not `live`: a never-injected read then builds the `.live` case in
    /// place, with no call and no lazy global's once-check (the benchmark row "read: never
    /// injected (fast path)" against "floor: global let read").
    @inlinable
    public static var defaultValue: Clock {
        Clock(.live)
    }

    /// A clock whose time stands still at `date`; sleeps return at once (after checking
    /// for cancellation).
    ///
    /// ```swift
    /// withInjected(Clock.fixed(Date(timeIntervalSince1970: 0))) {
    ///     #expect(greeting() == "Good evening")
    /// }
    /// ```
    public static func fixed(_ date: Date) -> Clock {
        Clock(.fixed(date))
    }

    /// A clock where every sleep returns at once and moves time forward by its duration:
    /// code with timeouts, retries and back-off runs instantly and sees the time it
    /// expects to have waited.
    ///
    /// ```swift
    /// let clock = Clock.immediate(start: Date(timeIntervalSince1970: 0))
    /// try await withInjected(clock) {
    ///     try await retry { throw Failure() }    // three back-offs, no real waiting
    /// }
    /// #expect(clock.now == Date(timeIntervalSince1970: 6))
    /// ```
    public static func immediate(start: Date = Date()) -> Clock {
        Clock(backend: ImmediateClockBackend(start: start))
    }

    /// A clock driven by any `Swift.Clock` measured in `Duration` — your own, or another
    /// library's test clock. Wall time starts at `wallTimeAtStart` and moves with it.
    ///
    /// ```swift
    /// let clock = Clock(ContinuousClock())
    /// let suspending = Clock(SuspendingClock(), wallTimeAtStart: Date())
    /// ```
    public init<C: Swift.Clock>(_ clock: C, wallTimeAtStart: Date = Date()) where C.Duration == Swift.Duration {
        self.init(backend: SwiftClockBackend(clock: clock, wallTimeAtStart: wallTimeAtStart))
    }

    /// What kind of clock this is and its time, e.g. `Clock.fixed(2001-01-01 00:00:00 +0000)`.
    public var description: String {
        backend.description
    }
}
