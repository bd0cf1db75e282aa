// Why: `withInjected` is the only way values become current, and the scope ends by construction.

/// Runs `body` with `values` current: for its duration, `V.current` returns the injected
/// value in this task and its child tasks (or, outside any task, on this thread).
///
/// ```swift
/// func makeWidget() -> String {
///     (Defaults.current.string(forKey: "defaultColour") ?? "") + "Widget"
/// }
///
/// withInjected(Defaults.inMemory(["defaultColour": "Red"])) {
///     assert(makeWidget() == "RedWidget")
/// }
/// ```
///
/// - Many values at once: `withInjected(clock, defaults, logger) { … }` binds them all in
///   one step; where two share a type, the later argument wins.
/// - Scopes nest: the innermost wins for the types it injects; values injected further
///   out stay current for every other type.
/// - When `body` returns or throws, the previous values are current again — by
///   construction (the binding is popped by the task-local machinery), never by
///   bookkeeping that a failure could skip.
/// - Other tasks and threads are unaffected, so parallel tests never see each other's
///   values. Work hopping to `Task.detached`, `DispatchQueue` or `Thread` does not inherit
///   the values; carry them with ``InjectionContext/current`` and
///   `InjectionContext.bind(_:)`, or see ``withInjectedProcessWide(_:operation:)``.
///
/// - Parameters:
///   - values: The values to make current.
///   - body: The work to run with them. A non-throwing body needs no `try`.
/// - Returns: Whatever `body` returns.
@inlinable
public func withInjected<each V: Injectable, R, Failure: Error>(
    _ values: repeat each V,
    operation body: () throws(Failure) -> R
) throws(Failure) -> R {
    try InjectionContext.current.injecting(repeat each values)._runScope(body) { $0._endScope() }
}

/// Runs the asynchronous `body` with `values` current, in this task and every child task
/// it creates (`async let`, task groups, `Task { }`).
///
/// ```swift
/// let result = await withInjected(Clock.fixed(noon)) {
///     await scheduler.nextReminder()      // child tasks see the fixed clock too
/// }
/// ```
///
/// The scope and `body` run on the caller's isolation, with no hop: a main-actor test or
/// view model calls its own methods inside with no `await`, mutates its non-`Sendable`
/// locals, and gets a non-`Sendable` result straight through. Cancellation ends it like a
/// throw: the previous values are current again. See the synchronous overload for the
/// rules.
///
/// - Parameters:
///   - values: The values to make current.
///   - isolation: The caller's isolation; leave the default.
///   - body: The work to run with them.
/// - Returns: Whatever `body` returns.
@inlinable
public func withInjected<each V: Injectable, R, Failure: Error>(
    _ values: repeat each V,
    isolation: isolated (any Actor)? = #isolation,
    operation body: () async throws(Failure) -> R
) async throws(Failure) -> R {
    var scope = InjectionContext.current.injecting(repeat each values)
    defer { scope._endScope() }
    return try await scope.run(isolation: isolation, body)
}

// Spelled-out one-, two- and three-value overloads
// -------------------------------------------------
// The forms of `withInjected` below behave exactly as the variadic ones above; the
// compiler picks them for one, two and three arguments.
// They exist only for speed: the compiler does not yet specialise the generic calls made
// inside a parameter-pack expansion (`repeat …(each V)…`), so the variadic form goes
// through unspecialised metadata for every value. They can go once it does: when the
// benchmark rows "scope: withInjected variadic, 1 value"
// and "…, 3 values" measure the same as the rows without "variadic",
// delete them and nothing else changes (same behaviour, same tests).

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
    try InjectionContext.current.injecting(value)._runScope(body) { $0._endScope(V.self) }
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
    var scope = InjectionContext.current.injecting(value)
    defer { scope._endScope(V.self) }
    return try await scope.run(isolation: isolation, body)
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
    try InjectionContext.current.injecting(a, b)._runScope(body) { $0._endScope(A.self, B.self) }
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
    var scope = InjectionContext.current.injecting(a, b)
    defer { scope._endScope(A.self, B.self) }
    return try await scope.run(isolation: isolation, body)
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
    try InjectionContext.current.injecting(a, b, c)._runScope(body) { $0._endScope(A.self, B.self, C.self) }
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
    var scope = InjectionContext.current.injecting(a, b, c)
    defer { scope._endScope(A.self, B.self, C.self) }
    return try await scope.run(isolation: isolation, body)
}
