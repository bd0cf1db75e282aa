import _AmbientShims

/// Runs `body` with `values` current on **every** thread and task in the process that has
/// no binding of its own for their types — including threads and queues that legacy code
/// creates and you cannot wrap. This is what swizzling a singleton accessor did, made
/// safe: scoped, restored on exit, and exclusive.
///
/// ```swift
/// // NoteManager searches on its own private DispatchQueue; nothing there can be wrapped.
/// withInjectedProcessWide(Defaults.inMemory(["searchLimit": 5])) {
///     let notes = NoteManager().searchBlocking("milk")   // the queue sees the fake
///     assert(notes.count <= 5)
/// }
/// ```
///
/// - **Exclusive.** Only one process-wide scope is active at a time. A second one, started
///   from another thread or task, *waits* until the first ends, so parallel tests that use
///   it run one after the other instead of clobbering each other's values. This overload
///   waits by blocking the calling thread, so it is for threads you own — a `Thread`, a
///   `DispatchQueue`, XCTest's synchronous test methods (which run on the main thread).
///   It is unavailable from async code, and **traps when called from inside a Swift task**
///   (a synchronous Swift Testing `@Test` function runs in one, as does a `Task { }` body),
///   unless it is nested in a process-wide scope that task already holds: blocking a thread
///   of the concurrency pool while an async process-wide scope waits for the pool could
///   deadlock the process. There use the `async` overload, which suspends instead (with a
///   body that does not `await`, write `await withInjectedProcessWide(value) { () async in … }`).
///   Waiting is not cancellable.
/// - **Nests.** Inside a process-wide scope (in its body, or in child tasks of it), another
///   one starts at once and layers its values over the outer ones; sibling tasks that
///   both nest take turns.
/// - **Loses to local bindings.** A value bound by ``withInjected(_:operation:)`` on the reading
///   task or thread wins over the process-wide one for its type.
/// - **Restored on exit**, by return or throw.
///
/// Avoid waiting for work that itself needs a *new* process-wide scope from outside this
/// one (another thread that is not a child task): it would wait for you, and you for it.
///
/// - Returns: Whatever `body` returns.
@available(
    *, noasync,
    message:
        "it blocks the thread while another process-wide scope is active; in async code use the async overload: await withInjectedProcessWide(…) { () async in … }"
)
public func withInjectedProcessWide<each V: AmbientValue, R, Failure: Error>(
    _ values: repeat each V,
    operation body: () throws(Failure) -> R
) throws(Failure) -> R {
    let level = ProcessWide.enterBlocking { parent in
        ContextStorage.make(repeat each values, over: parent)
    }
    defer { ProcessWide.exit(level) }
    return try ProcessWide.owner.withValue(level.token) { _capture(body) }.get()
}

/// Runs the asynchronous `body` with `values` current on every thread and task that has
/// no binding of its own for their types. While another process-wide scope is active,
/// this one *suspends* (it never blocks a thread of the cooperative pool) until that scope
/// ends; see the synchronous overload for the rules.
///
/// ```swift
/// try await withInjectedProcessWide(Clock.fixed(noon)) {
///     try await LegacyScheduler.shared.runPendingJobs()   // its threads see noon
/// }
/// ```
///
/// - Returns: Whatever `body` returns.
public func withInjectedProcessWide<each V: AmbientValue, R, Failure: Error>(
    _ values: repeat each V,
    isolation: isolated (any Actor)? = #isolation,
    operation body: () async throws(Failure) -> R
) async throws(Failure) -> R {
    let level = await ProcessWide.enterSuspending(isolation: isolation) { parent in
        ContextStorage.make(repeat each values, over: parent)
    }
    defer { ProcessWide.exit(level) }
    return try await ProcessWide.owner.withValue(
        level.token,
        operation: { await _capture(body) },
        isolation: isolation
    ).get()
}

/// The process-wide scope's state: a stack of active levels (nested scopes) and a FIFO of
/// scopes waiting for their turn, all guarded by `_ambient_process_lock`.
@usableFromInline
enum ProcessWide {
    /// One active process-wide scope.
    struct Level: Sendable {
        let token: UInt64
        /// `nonisolated(unsafe)`: immutable, holds only `Sendable` values (see `ContextStorage`).
        nonisolated(unsafe) let storage: ContextStorage?
    }

    /// Builds a level's storage on top of the level it nests in.
    typealias Builder = (ContextStorage?) -> ContextStorage?

    /// A scope waiting for its turn.
    struct Waiter {
        /// The token of the level it was started in (0: none).
        let parent: UInt64
        let build: Builder
        let wake: Wake
    }

    enum Wake {
        /// A blocked thread, polling `grants` for its ticket.
        case thread(ticket: UInt64)
        /// A suspended task.
        case task(CheckedContinuation<Level, Never>)
    }

    final class State: @unchecked Sendable {
        // @unchecked: every property is read and written only with `_ambient_process_lock` held.
        var levels: [Level] = []
        var waiters: [Waiter] = []
        /// Levels handed to blocked threads, by ticket, until they collect them.
        var grants: [UInt64: Level] = [:]
        var nextToken: UInt64 = 1
    }

    static let state = State()

    /// The token of the innermost process-wide level the running task/thread is inside.
    static let owner = TaskLocal<UInt64>(wrappedValue: 0)

    /// The value the active process-wide scope injects for `V`, if any.
    @inlinable
    static func value<V: AmbientValue>(of _: V.Type) -> V? {
        activeStorage()?.value(of: V.self)
    }

    /// The innermost active level's storage.
    @usableFromInline
    static func activeStorage() -> ContextStorage? {
        _ambient_process_lock()
        defer { _ambient_process_unlock() }
        return state.levels.last?.storage
    }

    /// Enters a level, blocking the calling thread while it is not this caller's turn.
    static func enterBlocking(_ build: @escaping Builder) -> Level {
        let parent = owner.get()
        // Blocking a thread of the concurrency pool while an async scope that needs the pool
        // holds the turn deadlocks once every pool thread blocks; refuse it deterministically
        // (not only when it happens to be contended) so it shows up the first time it runs.
        precondition(
            parent != 0 || !withUnsafeCurrentTask(body: { $0 != nil }),
            """
            withInjectedProcessWide: the blocking (synchronous) form was called from inside a Swift task \
            (a synchronous @Test function, a Task { } body, or code it calls). Waiting there for another \
            process-wide scope blocks a thread of the concurrency pool and can deadlock it. Make the caller \
            async and write `await withInjectedProcessWide(…) { () async in … }`, or call the blocking form \
            from a thread of your own (a Thread, a DispatchQueue, XCTest's synchronous test methods).
            """)
        _ambient_process_lock()
        defer { _ambient_process_unlock() }
        if let level = tryEnter(parent: parent, build) { return level }
        let ticket = state.nextToken
        state.nextToken += 1
        state.waiters.append(Waiter(parent: parent, build: build, wake: .thread(ticket: ticket)))
        while state.grants[ticket] == nil {
            _ambient_process_wait()
        }
        return state.grants.removeValue(forKey: ticket)!
    }

    /// Enters a level, suspending (never blocking) while it is not this caller's turn.
    static func enterSuspending(isolation: isolated (any Actor)?, _ build: @escaping Builder) async -> Level {
        let parent = owner.get()
        _ambient_process_lock()
        let immediate = tryEnter(parent: parent, build)
        _ambient_process_unlock()
        if let immediate { return immediate }
        return await withCheckedContinuation(isolation: isolation) { continuation in
            _ambient_process_lock()
            if let level = tryEnter(parent: parent, build) {
                _ambient_process_unlock()
                continuation.resume(returning: level)
            } else {
                state.waiters.append(Waiter(parent: parent, build: build, wake: .task(continuation)))
                _ambient_process_unlock()
            }
        }
    }

    /// Ends `level` and hands the turn to the first waiter that may now enter.
    static func exit(_ level: Level) {
        _ambient_process_lock()
        // Normally the innermost; an unstructured task that outlived its scope may end later.
        state.levels.removeAll { $0.token == level.token }
        if state.levels.isEmpty { _ambient_flags_clear(RuntimeFlags.processWide) }
        var resume: (CheckedContinuation<Level, Never>, Level)?
        var wakeThreads = false
        if let index = state.waiters.firstIndex(where: { mayEnter(parent: $0.parent) }) {
            let waiter = state.waiters.remove(at: index)
            let granted = push(waiter.build)
            switch waiter.wake {
            case .thread(let ticket):
                state.grants[ticket] = granted
                wakeThreads = true
            case .task(let continuation):
                resume = (continuation, granted)
            }
        }
        _ambient_process_unlock()
        if wakeThreads { _ambient_process_broadcast() }
        if let (continuation, granted) = resume { continuation.resume(returning: granted) }
    }

    /// Under the lock: a new level if the caller may enter now, else `nil`.
    private static func tryEnter(parent: UInt64, _ build: Builder) -> Level? {
        // Waiters queue in order: a newcomer does not overtake them.
        guard mayEnter(parent: parent), !state.waiters.contains(where: { mayEnter(parent: $0.parent) })
        else { return nil }
        return push(build)
    }

    /// Under the lock: whether a scope started inside level `parent` (0: none) may enter,
    /// i.e. `parent` is the innermost active level, or no level is active and `parent` is
    /// no longer one (its scope ended).
    private static func mayEnter(parent: UInt64) -> Bool {
        let innermost = state.levels.last?.token ?? 0
        if innermost == parent { return true }
        let parentEnded = !state.levels.contains { $0.token == parent }
        return parentEnded && innermost == 0
    }

    /// Under the lock: pushes a new innermost level.
    private static func push(_ build: Builder) -> Level {
        let level = Level(token: state.nextToken, storage: build(state.levels.last?.storage))
        state.nextToken += 1
        state.levels.append(level)
        _ambient_flags_set(RuntimeFlags.processWide)
        return level
    }
}
