// SPDX-License-Identifier: Apache-2.0

import _AmbientShims

// Why: legacy threads nobody can wrap still need a test's values, without a lock on the read.

// The process-wide scope: how its values reach threads nobody wrapped, without a lock
// ===================================================================================
//
// Entering and leaving are rare and take a lock (`ProcessWide.lock`): they keep the
// stack of active levels and the queue of scopes waiting for their turn. Reads are common,
// on every thread at once, and take no lock: they follow one pointer to an immutable
// `Snapshot` (the innermost level's values and the tokens of every active
// level), published with an atomic exchange each time the stack changes.
//
// Reclamation uses hazard pointers (in C, `_ambient_pw_*`): before reading a snapshot, a
// thread announces it in a slot of its own (its own cache line, so readers on different
// threads never contend), checks it is still the published one, reads, and clears the
// slot. A writer that replaced a snapshot waits until no slot names it, then releases it.
// So a value outlives its scope only until every read that started in the scope has
// returned, and a read costs two uncontended stores and two loads on top of the lookup.
// Epoch schemes need a shared counter or a grace-period thread; per-thread caches need an
// invalidation broadcast: hazard pointers need neither, and readers outnumber writers by
// orders of magnitude.
//
// Who sees the values. A task or thread that carries a binding of its own — one that injects
// something: running the empty context (`InjectionContext().run`) is no binding, exactly as
// `run` documents ("every other type reads as it would outside any scope") — belongs to
// another scope (a test under `.injecting`, say), and never sees a process-wide value it
// did not ask for; otherwise parallel tests would see each other's fakes, which is the
// swizzle's flaw. The scope's body runs in a context marked with its level's token
// (`ContextStorage.processWideToken`), inherited by everything made from it: the tasks it
// starts, the scopes nested in it, the contexts captured there and carried to other
// threads. A read sees the snapshot when the reader has no binding (a legacy thread), or
// its binding carries the token of an active level, or (for a context built from scratch
// and run inside the scope's task) its task is inside an active level (`owner`).

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
/// - **Stays out of other scopes.** A task or thread whose binding was made outside this
///   scope (another test under `.injecting(…)` or `.strict()`) never sees its values;
///   threads and tasks with no binding at all, and everything started or captured inside
///   the scope, do. Reads take no lock.
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
public func withInjectedProcessWide<each V: Injectable, R, Failure: Error>(
    _ values: repeat each V,
    operation body: () throws(Failure) -> R
) throws(Failure) -> R {
    let level = ProcessWide.enterBlocking { parent in
        ContextStorage.make(repeat each values, over: parent.map(Unmanaged.passUnretained))
    }
    defer { ProcessWide.exit(level) }
    let context = ProcessWide.bodyContext(for: level)
    return try ProcessWide.owner.withValue(level.token) {
        _capture { () throws(Failure) -> R in try context.run(body) }
    }
    .get()
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
public func withInjectedProcessWide<each V: Injectable, R, Failure: Error>(
    _ values: repeat each V,
    isolation: isolated (any Actor)? = #isolation,
    operation body: () async throws(Failure) -> R
) async throws(Failure) -> R {
    let level = await ProcessWide.enterSuspending(isolation: isolation) { parent in
        ContextStorage.make(repeat each values, over: parent.map(Unmanaged.passUnretained))
    }
    defer { ProcessWide.exit(level) }
    let context = ProcessWide.bodyContext(for: level)
    do {
        return try await ProcessWide.owner.withValue(level.token) { () async throws(Failure) -> R in
            try await context.run(isolation: isolation, body)
        }
    } catch {
        throw error as! Failure  // what `withValue` rethrows is what the body threw
    }
}

/// The process-wide scope's state: a stack of active levels (nested scopes) and a FIFO of
/// scopes waiting for their turn, all guarded by `lock`.
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
        // @unchecked: every property is read and written only with `ProcessWide.lock` held.
        var levels: [Level] = []
        var waiters: [Waiter] = []
        /// Levels handed to blocked threads, by ticket, until they collect them.
        var grants: [UInt64: Level] = [:]
        var nextToken: UInt64 = 1
        /// Snapshots replaced while the lock was held, to reclaim once it is released.
        var retired: [UnsafeRawPointer] = []
    }

    /// What readers see: immutable, published whole, reclaimed through hazard pointers.
    @usableFromInline
    final class Snapshot: @unchecked Sendable {
        // @unchecked: immutable; the storage holds only `Sendable` values.
        /// The innermost level's values, retained by this snapshot (unmanaged, so a read
        /// borrows it without touching its reference count, a shared cache line).
        @usableFromInline let storage: Unmanaged<ContextStorage>?
        /// The innermost active level's token, and the tokens of the levels it nests in
        /// (usually none: kept apart so the common, unnested scope allocates no array).
        let innermost: UInt64
        let outer: [UInt64]

        init(storage: ContextStorage?, tokens: some BidirectionalCollection<UInt64>) {
            self.storage = storage.map { Unmanaged.passRetained($0) }
            self.innermost = tokens.last ?? 0
            self.outer = tokens.count > 1 ? Array(tokens.dropLast(1)) : []
        }

        /// Whether `token` is an active level's.
        func isActive(_ token: UInt64) -> Bool {
            token != 0 && (token == innermost || outer.contains(token))
        }

        deinit {
            storage?.release()
        }

        /// Whether a reader whose binding is `bound` (`nil`: none, or the empty context)
        /// may see these values.
        @inlinable
        func isVisible(from bound: Unmanaged<ContextStorage>?) -> Bool {
            guard let bound else { return true }
            return isVisible(fromBound: bound)
        }

        @usableFromInline
        func isVisible(fromBound bound: Unmanaged<ContextStorage>) -> Bool {
            let token = bound._withUnsafeGuaranteedRef { $0.processWideToken }
            if isActive(token) { return true }
            // A context built from scratch and run inside the scope's own task tree.
            return isActive(ProcessWide.owner.get())
        }
    }

    static let state = State()

    /// Guards `state`; blocked threads wait on its condition for their turn. Never held
    /// across a suspension.
    static let lock = Lock()

    /// The token of the innermost process-wide level the running task/thread is inside.
    @usableFromInline
    static let owner = TaskLocal<UInt64>(wrappedValue: 0)

    /// The value the active process-wide scope injects for `V`, if any and if a reader
    /// whose binding is `bound` may see it; when it injects none and `strict` is set, the
    /// ``StrictMode`` it injects, if any (the read's next question, answered from the same
    /// protected snapshot). Lock-free (see the top of this file).
    @inlinable
    static func value<V: Injectable>(
        of _: V.Type,
        orStrictMode strict: Bool,
        seenFrom bound: Unmanaged<ContextStorage>?
    ) -> (value: V?, strictMode: StrictMode?) {
        guard let raw = _ambient_pw_protect() else { return (nil, nil) }
        defer { _ambient_pw_unprotect() }
        return Unmanaged<Snapshot>.fromOpaque(raw)._withUnsafeGuaranteedRef { snapshot in
            guard snapshot.isVisible(from: bound), let storage = snapshot.storage else { return (nil, nil) }
            return storage._withUnsafeGuaranteedRef { storage in
                if let value = storage.value(of: V.self) { return (value, nil) }
                return (nil, strict ? storage.value(of: StrictMode.self) : nil)
            }
        }
    }

    /// The context a scope's body runs in: the caller's, marked with the level's token.
    static func bodyContext(for level: Level) -> InjectionContext {
        InjectionContext(
            storage: ContextStorage.marked(processWideToken: level.token, over: InjectionContext.current.storage))
    }

    /// Under the lock: publishes the current stack for readers; the snapshot it replaces
    /// is reclaimed by `unlock()`.
    private static func publish() {
        let snapshot: Snapshot? =
            state.levels.isEmpty
            ? nil : Snapshot(storage: state.levels.last?.storage, tokens: state.levels.lazy.map(\.token))
        let fresh = snapshot.map { UnsafeRawPointer(Unmanaged.passRetained($0).toOpaque()) }
        if let replaced = _ambient_pw_exchange(fresh) { state.retired.append(replaced) }
    }

    /// Releases the lock, then reclaims the snapshots replaced under it: each once no
    /// reader still holds it.
    private static func unlock() {
        let retired = state.retired
        state.retired.removeAll()
        lock.unlock()
        for snapshot in retired {
            _ambient_pw_wait_unprotected(snapshot)
            Unmanaged<Snapshot>.fromOpaque(snapshot).release()
        }
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
        lock.lock()
        defer { unlock() }
        if let level = tryEnter(parent: parent, build) { return level }
        let ticket = state.nextToken
        state.nextToken += 1
        state.waiters.append(Waiter(parent: parent, build: build, wake: .thread(ticket: ticket)))
        while state.grants[ticket] == nil {
            lock.wait()
        }
        return state.grants.removeValue(forKey: ticket)!
    }

    /// Enters a level, suspending (never blocking) while it is not this caller's turn.
    static func enterSuspending(isolation: isolated (any Actor)?, _ build: @escaping Builder) async -> Level {
        let parent = owner.get()
        lock.lock()
        let immediate = tryEnter(parent: parent, build)
        unlock()
        if let immediate { return immediate }
        return await withCheckedContinuation(isolation: isolation) { continuation in
            lock.lock()
            if let level = tryEnter(parent: parent, build) {
                unlock()
                continuation.resume(returning: level)
            } else {
                state.waiters.append(Waiter(parent: parent, build: build, wake: .task(continuation)))
                unlock()
            }
        }
    }

    /// Ends `level` and hands the turn to the first waiter that may now enter.
    static func exit(_ level: Level) {
        lock.lock()
        // Normally the innermost; an unstructured task that outlived its scope may end later.
        state.levels.removeAll { $0.token == level.token }
        publish()
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
        unlock()
        if wakeThreads { lock.broadcast() }
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
        publish()
        _ambient_flags_set(RuntimeFlags.processWide)
        return level
    }
}
