// SPDX-License-Identifier: Apache-2.0

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
    // The scope's three stages are Scope.swift's; this form supplies its values' make and empty.
    try InjectionContext._scope(
        bindingSwiftLog: InjectionContext._bindsSwiftLog(repeat (each V).self),
        make: { ContextStorage.make(repeat each values, over: $0) },
        empty: { $0.empty() },
        body
    )
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
    try await InjectionContext._scope(
        bindingSwiftLog: InjectionContext._bindsSwiftLog(repeat (each V).self),
        make: { ContextStorage.make(repeat each values, over: $0) },
        empty: { $0.empty() },
        isolation: isolation,
        body
    )
}

// The one-, two- and three-value forms of `withInjected`, faster than these and otherwise the
// same, are in ArityLadder.swift; all of them are Scope.swift's three stages.
