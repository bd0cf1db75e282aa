// SPDX-License-Identifier: Apache-2.0

// Why: the variadic forms of the scope path are slower than spelled-out ones, so the one-,
// two- and three-value forms exist, all of them here and only here.

// The arity ladder
// ================
// Every function in this file behaves exactly as its variadic counterpart, which the
// compiler would otherwise pick:
//
// | here (one, two, three values) | variadic counterpart |
// |---|---|
// | `withInjected(_:operation:)`, sync and async | `Injection.swift` |
// | `InjectionContext.injecting(_:)` | `InjectionContext.swift` |
// | `InjectionContext._bindsSwiftLog(_:)` | `_bindsSwiftLog(_:)`, `Scope.swift` |
// | `ContextStorage.make(one:/two:/three:over:)`, each beside its `empty`; `makeOutOfLine`, the same called (the async forms') | `make(_:over:)`, `ContextStorage+Making.swift`; `empty()`, `ContextStorage+Recycling.swift` |
//
// Each `withInjected` here is Scope.swift's `_scope`, given its arity's `make` and `empty`:
// the stages themselves are written once, there. They exist only for speed: the compiler does not yet specialise the generic calls made
// inside a parameter-pack expansion (`repeat …(each V)…`), so the variadic forms go through
// unspecialised metadata for every value (the Performance article's "spelled-out
// overloads" row has what they save). Each
// `make` writes its values in argument order and its `empty` destroys them from the same
// entries (each slot's type checked in debug builds), so the two sit side by side.
//
// Deleting the ladder, the day the compiler specialises packs:
// 1. `Benchmarks/run --filter 'scope: withInjected.*'`: the rows "scope: withInjected
//    variadic, 1 value" and "…, 3 values" measure the same as the rows without "variadic"
//    (and `Benchmarks/instructions 'scope: '` agrees).
// 2. Delete this file. Nothing else refers to it: every caller resolves to the variadic
//    forms unchanged.
// 3. `swift test`, and the sanitizers as `.ci/run` runs them.
// 4. `scripts/api`: the diff of `API/AmbientCore.txt` is exactly the public overloads below
//    (recorded there although hidden from the documentation,
//    `@_documentation(visibility: internal)`).
// 5. Remove the "spelled-out overloads" row from the Performance article.

/// Runs `body` with `value` current: the one-value form of the variadic
/// `withInjected(_:operation:)`, which the compiler picks for a single argument. Behaves identically; it exists because it is faster.
///
/// ```swift
/// withInjected(FeatureFlags(newCheckout: true)) {
///     assert(checkoutTitle() == "Pay now")
/// }
/// ```
@_documentation(visibility: internal)
@inlinable
public func withInjected<V: Injectable, R, Failure: Error>(
    _ value: V,
    operation body: () throws(Failure) -> R
) throws(Failure) -> R {
    try InjectionContext._scope(
        bindingSwiftLog: InjectionContext._bindsSwiftLog(V.self),
        make: { ContextStorage.make(one: value, over: $0) },
        empty: { $0.empty(V.self) },
        body
    )
}

/// Runs the asynchronous `body` with `value` current: the one-value form of the async,
/// variadic `withInjected(_:isolation:operation:)`, which the compiler picks for a single
/// argument.
@_documentation(visibility: internal)
@inlinable
public func withInjected<V: Injectable, R, Failure: Error>(
    _ value: V,
    isolation: isolated (any Actor)? = #isolation,
    operation body: () async throws(Failure) -> R
) async throws(Failure) -> R {
    try await InjectionContext._scope(
        bindingSwiftLog: InjectionContext._bindsSwiftLog(V.self),
        make: { ContextStorage.makeOutOfLine(one: value, over: $0) },
        empty: { $0.empty(V.self) },
        isolation: isolation,
        body
    )
}

/// Runs `body` with `a` and `b` current: a faster form of the variadic
/// `withInjected(_:operation:)`, which the compiler picks for two arguments. Behaves identically.
@_documentation(visibility: internal)
@inlinable
public func withInjected<A: Injectable, B: Injectable, R, Failure: Error>(
    _ a: A,
    _ b: B,
    operation body: () throws(Failure) -> R
) throws(Failure) -> R {
    try InjectionContext._scope(
        bindingSwiftLog: InjectionContext._bindsSwiftLog(A.self, B.self),
        make: { ContextStorage.make(two: a, b, over: $0) },
        empty: { $0.empty(A.self, B.self) },
        body
    )
}

/// Runs the asynchronous `body` with `a` and `b` current: the two-value form of the async
/// variadic `withInjected`, picked by the compiler.
@_documentation(visibility: internal)
@inlinable
public func withInjected<A: Injectable, B: Injectable, R, Failure: Error>(
    _ a: A,
    _ b: B,
    isolation: isolated (any Actor)? = #isolation,
    operation body: () async throws(Failure) -> R
) async throws(Failure) -> R {
    try await InjectionContext._scope(
        bindingSwiftLog: InjectionContext._bindsSwiftLog(A.self, B.self),
        make: { ContextStorage.makeOutOfLine(two: a, b, over: $0) },
        empty: { $0.empty(A.self, B.self) },
        isolation: isolation,
        body
    )
}

/// Runs `body` with `a`, `b` and `c` current: a faster form of the variadic
/// `withInjected(_:operation:)`, which the compiler picks for three arguments. Behaves identically.
@_documentation(visibility: internal)
@inlinable
public func withInjected<A: Injectable, B: Injectable, C: Injectable, R, Failure: Error>(
    _ a: A,
    _ b: B,
    _ c: C,
    operation body: () throws(Failure) -> R
) throws(Failure) -> R {
    try InjectionContext._scope(
        bindingSwiftLog: InjectionContext._bindsSwiftLog(A.self, B.self, C.self),
        make: { ContextStorage.make(three: a, b, c, over: $0) },
        empty: { $0.empty(A.self, B.self, C.self) },
        body
    )
}

/// Runs the asynchronous `body` with `a`, `b` and `c` current: the three-value form of the
/// async variadic `withInjected`, picked by the compiler.
@_documentation(visibility: internal)
@inlinable
public func withInjected<A: Injectable, B: Injectable, C: Injectable, R, Failure: Error>(
    _ a: A,
    _ b: B,
    _ c: C,
    isolation: isolated (any Actor)? = #isolation,
    operation body: () async throws(Failure) -> R
) async throws(Failure) -> R {
    try await InjectionContext._scope(
        bindingSwiftLog: InjectionContext._bindsSwiftLog(A.self, B.self, C.self),
        make: { ContextStorage.makeOutOfLine(three: a, b, c, over: $0) },
        empty: { $0.empty(A.self, B.self, C.self) },
        isolation: isolation,
        body
    )
}

extension InjectionContext {
    /// `_bindsSwiftLog` for one type (folded where the scope is specialised, async callers
    /// included, where the pack form's loop is not).
    @inlinable
    static func _bindsSwiftLog<V: Injectable>(_: V.Type) -> Bool {
        #if SwiftLog
        V._bindsSwiftLogChannel
        #else
        false
        #endif
    }

    /// `_bindsSwiftLog` for two types.
    @inlinable
    static func _bindsSwiftLog<A: Injectable, B: Injectable>(_: A.Type, _: B.Type) -> Bool {
        #if SwiftLog
        A._bindsSwiftLogChannel || B._bindsSwiftLogChannel
        #else
        false
        #endif
    }

    /// `_bindsSwiftLog` for three types.
    @inlinable
    static func _bindsSwiftLog<A: Injectable, B: Injectable, C: Injectable>(_: A.Type, _: B.Type, _: C.Type) -> Bool {
        #if SwiftLog
        A._bindsSwiftLogChannel || B._bindsSwiftLogChannel || C._bindsSwiftLogChannel
        #else
        false
        #endif
    }

    /// This context with `value` injected on top (a faster form of the variadic
    /// `injecting`, chosen automatically for one value).
    @_documentation(visibility: internal)
    @inlinable
    public func injecting<V: Injectable>(_ value: V) -> InjectionContext {
        InjectionContext(storage: ContextStorage.make(one: value, over: unretainedStorage))
    }

    /// This context with `a` and `b` injected on top (a faster form of the variadic
    /// `injecting`, chosen automatically for two values; `b` wins a shared type).
    @_documentation(visibility: internal)
    @inlinable
    public func injecting<A: Injectable, B: Injectable>(_ a: A, _ b: B) -> InjectionContext {
        InjectionContext(storage: ContextStorage.make(two: a, b, over: unretainedStorage))
    }

    /// This context with `a`, `b` and `c` injected on top (a faster form of the variadic
    /// `injecting`, chosen automatically for three values; later arguments win a shared type).
    @_documentation(visibility: internal)
    @inlinable
    public func injecting<A: Injectable, B: Injectable, C: Injectable>(
        _ a: A, _ b: B, _ c: C
    ) -> InjectionContext {
        InjectionContext(storage: ContextStorage.make(three: a, b, c, over: unretainedStorage))
    }
}

extension ContextStorage {
    /// `make(one:over:)`, `make(two:_:over:)` and `make(three:_:_:over:)` called, not inlined:
    /// what the async forms use. An async `withInjected` with the whole scope path inlined
    /// grows past what the optimiser inlines its body into, and an async body left out of
    /// line costs a frame of the task's allocator and an executor switch more than the call
    /// (Benchmarks/ab's async rows); a synchronous scope inlines it whole.
    @inlinable @inline(never)
    static func makeOutOfLine<V: Injectable>(one value: V, over parent: Unmanaged<ContextStorage>?) -> ContextStorage {
        make(one: value, over: parent)
    }

    /// `make(two:_:over:)`, not inlined (see `makeOutOfLine(one:over:)`).
    @inlinable @inline(never)
    static func makeOutOfLine<A: Injectable, B: Injectable>(
        two a: A, _ b: B, over parent: Unmanaged<ContextStorage>?
    ) -> ContextStorage {
        make(two: a, b, over: parent)
    }

    /// `make(three:_:_:over:)`, not inlined (see `makeOutOfLine(one:over:)`).
    @inlinable @inline(never)
    static func makeOutOfLine<A: Injectable, B: Injectable, C: Injectable>(
        three a: A, _ b: B, _ c: C, over parent: Unmanaged<ContextStorage>?
    ) -> ContextStorage {
        make(three: a, b, c, over: parent)
    }
}

extension ContextStorage {
    /// A new storage holding `value` on top of `parent`'s.
    @inlinable @inline(__always)
    static func make<V: Injectable>(one value: V, over parent: Unmanaged<ContextStorage>?) -> ContextStorage {
        let copies = parent?._withUnsafeGuaranteedRef { $0.entries(before: V.self) } ?? 0
        return make(owned: 1, bytes: reservation(for: V.self), copies: copies, over: parent) { $0.insert(value) }
    }

    /// `empty()` for a storage made by `make(one:over:)` with a `V`.
    @inlinable
    func empty<V: Injectable>(_: V.Type) {
        withOwnedSlots { slots in Self.destroyValue(V.self, of: slots[0]) }
        emptied()
    }

    /// A new storage holding `a` and `b` on top of `parent`'s (specialised, as ``make(one:over:)``).
    /// Labelled, as `three:` is: unlabelled, the variadic `make` (which returns an optional,
    /// as `InjectionContext(storage:)` takes) would win overload resolution.
    @inlinable @inline(__always)
    static func make<A: Injectable, B: Injectable>(
        two a: A, _ b: B, over parent: Unmanaged<ContextStorage>?
    ) -> ContextStorage {
        let copies =
            parent?._withUnsafeGuaranteedRef { $0.entries(before: A.self) &+ $0.entries(before: B.self) } ?? 0
        let bytes = reservation(for: A.self) &+ reservation(for: B.self)
        return make(owned: 2, bytes: bytes, copies: copies, over: parent) { writer in
            writer.insert(a)
            writer.insert(b)
        }
    }

    /// `empty()` for a storage made by `make(two:_:over:)` with an `A` and a `B`.
    @inlinable
    func empty<A: Injectable, B: Injectable>(_: A.Type, _: B.Type) {
        withOwnedSlots { slots in
            Self.destroyValue(A.self, of: slots[0])  // argument order
            Self.destroyValue(B.self, of: slots[1])
        }
        emptied()
    }

    /// A new storage holding `a`, `b` and `c` on top of `parent`'s (specialised).
    @inlinable @inline(__always)
    static func make<A: Injectable, B: Injectable, C: Injectable>(
        three a: A, _ b: B, _ c: C, over parent: Unmanaged<ContextStorage>?
    ) -> ContextStorage {
        let copies =
            parent?._withUnsafeGuaranteedRef {
                $0.entries(before: A.self) &+ $0.entries(before: B.self) &+ $0.entries(before: C.self)
            } ?? 0
        let bytes = reservation(for: A.self) &+ reservation(for: B.self) &+ reservation(for: C.self)
        return make(owned: 3, bytes: bytes, copies: copies, over: parent) { writer in
            writer.insert(a)
            writer.insert(b)
            writer.insert(c)
        }
    }

    /// `empty()` for a storage made by `make(three:_:_:over:)` with an `A`, a `B` and a `C`.
    @inlinable
    func empty<A: Injectable, B: Injectable, C: Injectable>(_: A.Type, _: B.Type, _: C.Type) {
        withOwnedSlots { slots in
            Self.destroyValue(A.self, of: slots[0])  // argument order
            Self.destroyValue(B.self, of: slots[1])
            Self.destroyValue(C.self, of: slots[2])
        }
        emptied()
    }
}
