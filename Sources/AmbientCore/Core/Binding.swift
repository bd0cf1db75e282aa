// SPDX-License-Identifier: Apache-2.0

import _AmbientShims

// Why: one task-local carries every scope's values, and only this file touches it (scope stage 2: bind, run).

// The binding: how a context becomes current, and how a read finds it
// ===================================================================
//
// Everything about the one task-local behind Ambient lives in this file: the `TaskLocal`
// itself, its key in the runtime's storage, the borrowed read that `current` uses, and the
// public ways in and out (`InjectionContext.current`, `run`, `bind`).
//
// - A scope binds ONE value, an `InjectionContext` (one optional reference to an immutable
//   `ContextStorage`: flat entries, or a hashed index shared with its parent's), with `TaskLocal.withValue`:
//   the runtime pushes it on entry and pops it on exit, whatever way the body leaves.
//   Nothing is restored by hand.
// - Outside any task the runtime keeps the same binding per thread; that is Ambient's
//   thread-local half, with no code of its own.
// - A read (`AmbientValue.current`) does not call `TaskLocal.get()`, which is generic,
//   not inlinable and returns a +1 copy: it asks the runtime for the address of the
//   bound item (`swift_task_localValueGet`, exported since Swift 5.5) and borrows the
//   storage there without a retain/release pair. The benchmark rows "read: scope of 1"
//   against "read: scope of 1, via TaskLocal.get()" show what that buys.
// - `RuntimeFlags.bound` is set before the first binding (with this file's key published
//   first), so a process that never binds pays one atomic load per read.
// - The borrowed read depends on two things no API promises: the runtime symbol, and the
//   item it returns holding an `InjectionContext` as one optional reference. The layout is
//   ours, so a `precondition` states it; the runtime is not, so the first binding checks it
//   (`borrowedReadWorks`: bind a sentinel, compare the borrowed read with `TaskLocal.get()`)
//   and, if the two ever differ, every read uses `TaskLocal.get()` instead — slower, never
//   wrong. The outcome is in the flag word the read loads anyway: `bound` when the check
//   passed (the borrowed read), `publicRead` instead when it failed; with `bound` clear, a
//   read goes to its out-of-line cold half, which reads through `get()` first. So the check
//   adds nothing to the hot path.

/// The Swift runtime's task-local lookup (the function `TaskLocal.get()` calls): the
/// address of the value bound to `key` in the current task — or, outside any task, on the
/// current thread — or `nil`. The returned storage stays valid while the binding does,
/// which for the running code is at least until it returns.
@usableFromInline
@_silgen_name("swift_task_localValueGet")
func _ambientTaskLocalValueGet(key: UnsafeRawPointer) -> UnsafeMutableRawPointer?

/// The one task-local behind every scope, and the two ways of using it.
@usableFromInline
enum Binding {
    /// The task-local. Outside a task, Swift binds it per thread.
    @usableFromInline
    static let taskLocal = TaskLocal<InjectionContext>(wrappedValue: InjectionContext())

    /// The key of ``taskLocal`` in the runtime's task-local storage: the `TaskLocal`
    /// object's address, exactly as `TaskLocal` itself computes it.
    @usableFromInline
    static var key: UnsafeRawPointer {
        UnsafeRawPointer(Unmanaged.passUnretained(taskLocal).toOpaque())
    }

    /// The task-local, ready to bind, for the async scope (`_bound(_:)` cannot suspend):
    /// the `static let` read in place, which the compiler borrows for the call (a
    /// `TaskLocal` returned by a function, or taken from the C side's key, is retained and
    /// released around every scope); the first binding publishes the key first. The
    /// swift-log channel's async scope keeps `markedTaskLocal()`: inside its bridging
    /// closure this form counts more (its row in `Benchmarks/instructions` shows it).
    @inlinable
    static var readyTaskLocal: TaskLocal<InjectionContext> {
        if _ambient_flags_load() & (RuntimeFlags.bound | RuntimeFlags.publicRead) == 0 {
            RuntimeFlags.markBoundTheFirstTime(key: key)
        }
        return taskLocal
    }

    /// The task-local, with the key published and `RuntimeFlags.bound` set (the first
    /// binding in the process does that; afterwards a flag check).
    @usableFromInline
    static func markedTaskLocal() -> TaskLocal<InjectionContext> {
        RuntimeFlags.markBound(key: key)
        return taskLocal
    }

    /// The storage bound to this task/thread, unretained: valid while the binding is, which
    /// for the running code is at least until it returns. `nil` when nothing (or the empty
    /// context) is bound. Only valid once `RuntimeFlags.bound` is set (which publishes the key
    /// and says the borrowed read passed its self-check).
    @inlinable
    static func boundStorage() -> Unmanaged<ContextStorage>? {
        // The key is published (release) before `bound` is set, and every caller has loaded
        // the flags (acquire) and seen `bound`: it is there, so no test for `nil`.
        let key = _ambient_binding_key_load().unsafelyUnwrapped
        guard let item = _ambientTaskLocalValueGet(key: key),
            // An `InjectionContext` is exactly one optional reference (`borrowedReadWorks`).
            let object = item.load(as: UnsafeRawPointer?.self)
        else { return nil }
        return Unmanaged<ContextStorage>.fromOpaque(object)
    }

    /// The storage of ``InjectionContext/current``, unretained: what `current` retains, and
    /// what a new scope is made on top of (ContextStorage+Making.swift) with no retain/release
    /// pair. Valid while the binding is, which for the running code is at least until it
    /// returns. Nothing bound yet: `nil`; the self-check failed: through `TaskLocal.get()`.
    @inlinable
    static func currentStorage() -> Unmanaged<ContextStorage>? {
        let flags = _ambient_flags_load()
        if flags & RuntimeFlags.bound != 0 { return boundStorage() }
        if flags & RuntimeFlags.publicRead != 0 { return boundStorageThroughGet() }
        return nil
    }

    /// `boundStorage()` through the public `TaskLocal.get()`: what reads use when the first
    /// binding's self-check failed (`RuntimeFlags.publicRead` set, `bound` not). The copy
    /// `get()` returns is released here; the binding keeps the storage alive, as for the
    /// borrowed read. Out of line: no read pays for it unless the check failed.
    @usableFromInline
    @inline(never)
    static func boundStorageThroughGet() -> Unmanaged<ContextStorage>? {
        taskLocal.get().storage.map { Unmanaged.passUnretained($0) }
    }

    /// Whether the runtime's borrowed read finds what `TaskLocal.get()` finds: binds a
    /// sentinel context to the task-local and compares the two reads (and the read outside
    /// the binding, which must be the enclosing one). Run once, by the first binding.
    @usableFromInline
    static func borrowedReadWorks(key: UnsafeRawPointer) -> Bool {
        precondition(
            MemoryLayout<InjectionContext>.size == MemoryLayout<UnsafeRawPointer?>.size
                && MemoryLayout<InjectionContext>.alignment == MemoryLayout<UnsafeRawPointer?>.alignment,
            "Ambient: InjectionContext must be exactly one optional reference for the borrowed read (Binding.swift)")
        func borrowed() -> UnsafeRawPointer? {
            _ambientTaskLocalValueGet(key: key)?.load(as: UnsafeRawPointer?.self)
        }
        func viaGet() -> UnsafeRawPointer? {
            taskLocal.get().storage.map { UnsafeRawPointer(Unmanaged.passUnretained($0).toOpaque()) }
        }
        guard borrowed() == viaGet() else { return false }
        let sentinel = InjectionContext().injecting(_BindingSentinel())
        let inside = taskLocal.withValue(sentinel) { (borrowed(), viaGet()) }
        let expected = sentinel.storage.map { UnsafeRawPointer(Unmanaged.passUnretained($0).toOpaque()) }
        return inside.0 == expected && inside.1 == expected && borrowed() == viaGet()
    }
}

/// The value the self-check binds: a type nothing else injects.
private struct _BindingSentinel: AmbientValue {
    static var defaultValue: _BindingSentinel { _BindingSentinel() }
}

extension InjectionContext {
    /// Everything injected here: the context of the innermost enclosing scope on this
    /// task (or, outside any task, this thread). Empty outside every scope.
    ///
    /// Process-wide values (``withInjectedProcessWide(_:operation:)``) are not part of it: they are
    /// looked up where the context is used, not where it was captured.
    @inlinable
    public static var current: InjectionContext {
        InjectionContext(storage: Binding.currentStorage()?.takeUnretainedValue())
    }

    /// Runs `body` inside this context: the values it holds are current, exactly as they
    /// were where it was captured, and the enclosing scope's values, if any, are hidden for
    /// the duration: every other type reads as it would outside any scope (an active
    /// process-wide scope's value, else its default).
    ///
    /// Use it to carry injected values to code that does not inherit them:
    ///
    /// ```swift
    /// let context = InjectionContext.current
    /// let thread = Thread {
    ///     context.run { legacyWorker() }
    /// }
    /// thread.start()
    /// ```
    ///
    /// - Returns: Whatever `body` returns.
    @inlinable
    public func run<R, Failure: Error>(_ body: () throws(Failure) -> R) throws(Failure) -> R {
        // `TaskLocal.withValue` rethrows untyped errors; carry the typed outcome through it
        // as a value instead, so no error is ever cast back.
        #if SwiftLog
        if SwiftLogChannel.mustBind(self) { return try _runBridgingSwiftLog(body) }
        #endif
        return try _bound(body).get()
    }

    #if SwiftLog
    /// `run(_:)` with swift-log's task-local logger bound too (`SwiftLogChannel`):
    /// specialised where `run` is, but out of line, so that `run` of a context without a new
    /// logger keeps its own code tight.
    @inlinable @inline(never)
    func _runBridgingSwiftLog<R, Failure: Error>(_ body: () throws(Failure) -> R) throws(Failure) -> R {
        try SwiftLogChannel.withBridge { _bound(body) }.get()
    }
    #endif

    /// Binds this context on this task (or thread) for `body` and returns `body`'s outcome:
    /// every synchronous binding's path. After the first binding in the process, and with
    /// no ``ScopeFollower`` registered, one load of the flags decides, and the task-local is
    /// read back from the key the C side holds and borrowed (no once-check, no retain and
    /// release of an object every thread shares). Otherwise the slow path: the first
    /// binding publishes the key, and registered followers are installed around `body`.
    @inlinable
    func _bound<R, Failure: Error>(_ body: () throws(Failure) -> R) -> Result<R, Failure> {
        if _ambient_flags_load() & (RuntimeFlags.bound | RuntimeFlags.followers) == RuntimeFlags.bound,
            let key = _ambient_binding_key_load()
        {
            return Unmanaged<TaskLocal<InjectionContext>>.fromOpaque(key)._withUnsafeGuaranteedRef {
                $0.withValue(self) { _capture(body) }
            }
        }
        return _boundSlowly(body)
    }

    /// `_bound(_:)`'s slow path, out of line so the fast path stays tight.
    @inlinable @inline(never)
    func _boundSlowly<R, Failure: Error>(_ body: () throws(Failure) -> R) -> Result<R, Failure> {
        Binding.markedTaskLocal().withValue(self) { _followed(body) }
    }

    /// Runs the asynchronous `body` inside this context, on the caller's isolation (no hop).
    ///
    /// ```swift
    /// let context = InjectionContext.current
    /// Task.detached {
    ///     await context.run { await refreshInBackground() }
    /// }
    /// ```
    ///
    /// - Returns: Whatever `body` returns.
    @inlinable
    public func run<R, Failure: Error>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws(Failure) -> R
    ) async throws(Failure) -> R {
        #if SwiftLog
        if SwiftLogChannel.mustBind(self) {
            return try await _bindBridgingSwiftLog(isolation: isolation, body)
        }
        #endif
        return try await _bind(isolation: isolation, body)
    }

    /// Binds this context for `body`: `run(isolation:_:)` without the SwiftLog trait's
    /// check, for a scope `withInjected` just made (which checks its types instead).
    @inlinable
    func _bind<R, Failure: Error>(
        isolation: isolated (any Actor)?,
        _ body: () async throws(Failure) -> R
    ) async throws(Failure) -> R {
        // Why not `nonisolated(nonsending)`: on Swift 6.3 such a function switches back to
        // its caller's executor after the `await` (`swift_task_switch`), which this
        // `isolated` parameter, running on the same actor, does not (the Performance
        // article's async scope rows count both). `body` goes to `withValue` as it is, with
        // no `isolation:` argument, as swift-log calls it: `withValue`'s default is
        // `#isolation`, here this function's `isolation`, and on Swift 6.4, which deprecates
        // that parameter, the same call resolves to its `nonisolated(nonsending)` form, with
        // no warning. `withValue` rethrows untyped; what it rethrows is what `body` threw, so
        // the cast holds.
        do {
            return try await Binding.readyTaskLocal.withValue(self, operation: body)
        } catch {
            throw error as! Failure
        }
    }

    #if SwiftLog
    /// `_bind(isolation:_:)` with swift-log's task-local logger bound too (`SwiftLogChannel`).
    @inlinable
    func _bindBridgingSwiftLog<R, Failure: Error>(
        isolation: isolated (any Actor)?,
        _ body: () async throws(Failure) -> R
    ) async throws(Failure) -> R {
        do {
            return try await SwiftLogChannel.withBridge(isolation: isolation) {
                try await Binding.markedTaskLocal().withValue(self, operation: body)
            }
        } catch {
            throw error as! Failure
        }
    }
    #endif

    /// Wraps `body` so that, wherever and whenever it is called, it runs inside this
    /// context. For escaping closures handed to code that runs them elsewhere:
    /// `DispatchQueue.async(execute:)`, `Thread(block:)`, completion handlers of any arity.
    ///
    /// ```swift
    /// let context = InjectionContext.current
    /// queue.async(execute: context.bind {
    ///     assert(Clock.current.now == fixedDate)   // the caller's injected clock
    /// })
    /// legacyFetch(completion: context.bind { (data: Data?, error: Error?) in
    ///     handle(data, error)                      // sees the caller's injected values
    /// })
    /// ```
    @inlinable
    public func bind<each Argument, R>(
        _ body: @escaping @Sendable (repeat each Argument) -> R
    ) -> @Sendable (repeat each Argument) -> R {
        { (arguments: repeat each Argument) -> R in
            self.run { body(repeat each arguments) }
        }
    }

    /// Wraps a throwing `body` so that, wherever and whenever it is called, it runs inside
    /// this context. Errors pass through unchanged.
    @inlinable
    public func bind<each Argument, R>(
        _ body: @escaping @Sendable (repeat each Argument) throws -> R
    ) -> @Sendable (repeat each Argument) throws -> R {
        { (arguments: repeat each Argument) throws -> R in
            try self.run { try body(repeat each arguments) }
        }
    }
}

extension InjectionContext {
    /// Wraps main-actor `body` so that, when it is called — on the main actor — it runs inside
    /// this context. For the closures an app hands to the main queue, a `Timer` or
    /// `NotificationCenter`, written as they are: calling main-actor methods and mutating
    /// main-actor state, which ``bind(_:)-b82v``'s `@Sendable` closures cannot.
    ///
    /// ```swift
    /// @MainActor func refresh() {
    ///     let context = InjectionContext.current
    ///     DispatchQueue.main.async(execute: context.bindMainActor {
    ///         viewModel.reload()                       // main-actor call, the caller's values
    ///     })
    ///     Timer.scheduledTimer(withTimeInterval: 1, repeats: true, block: context.bindMainActor { _ in
    ///         ticks += 1                               // main-actor state
    ///     })
    ///     NotificationCenter.default.addObserver(
    ///         forName: .didSync, object: nil, queue: .main,
    ///         using: context.bindMainActor { note in viewModel.apply(note) })
    /// }
    /// ```
    ///
    /// The result is `@Sendable`, as those APIs require, and checks where it runs: called
    /// off the main actor (a notification posted on a background thread to an observer with
    /// `queue: nil`, say) it stops the process with a message naming this method, exactly as
    /// `MainActor.assumeIsolated` does. For closures that may run anywhere use
    /// ``bind(_:)-b82v``; inside a block that already runs on the main actor,
    /// `context.run { … }` does the same for a closure that does not escape.
    @inlinable
    public func bindMainActor<each Argument, R>(
        _ body: @escaping @MainActor (repeat each Argument) -> R
    ) -> @Sendable (repeat each Argument) -> R {
        // A main-actor closure has the representation of a plain one; the isolation is only
        // in its type. The check below makes calling it as one sound (as `assumeIsolated`
        // does). Variadic function types cannot be cast directly: through a struct, they can.
        nonisolated(unsafe) let call = unsafeBitCast(
            _MainActorBody(call: body), to: _UncheckedBody<repeat each Argument, R>.self
        ).call
        return { (arguments: repeat each Argument) -> R in
            MainActor.preconditionIsolated(
                "InjectionContext.bindMainActor: the bound closure was called off the main actor; "
                    + "deliver it on the main queue (queue: .main) or use bind(_:)")
            return self.run { call(repeat each arguments) }
        }
    }
}

/// A main-actor closure, for ``InjectionContext/bindMainActor(_:)``'s cast.
@usableFromInline
struct _MainActorBody<each Argument, R> {
    @usableFromInline let call: @MainActor (repeat each Argument) -> R
    @inlinable init(call: @escaping @MainActor (repeat each Argument) -> R) { self.call = call }
}

/// The same closure with its isolation erased (same layout as `_MainActorBody`).
@usableFromInline
struct _UncheckedBody<each Argument, R> {
    @usableFromInline let call: (repeat each Argument) -> R
}

/// Runs `body`, returning its result or its typed error as a `Result`.
@inlinable
func _capture<R, Failure: Error>(_ body: () throws(Failure) -> R) -> Result<R, Failure> {
    do throws(Failure) {
        return .success(try body())
    } catch {
        return .failure(error)
    }
}
