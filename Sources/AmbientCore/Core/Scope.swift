// SPDX-License-Identifier: Apache-2.0

// Why: every `withInjected` (each arity, sync and async, with or without the SwiftLog
// channel) is these three stages, written once here, so a change to scope behaviour is made once.

// The scope path
// ==============
// 1. Enter: `make` builds the scope's storage over the bound one (borrowed, no retain):
//    ContextStorage+Making.swift for the variadic form, ArityLadder.swift for one, two and
//    three values.
// 2. Bind and run: `_bound` (sync) or `_bind` (async), Binding.swift; a scope whose types
//    include the logger binds swift-log's task-local too (SwiftLogChannel.swift).
// 3. End: `ContextStorage.recycle` (ContextStorage+Recycling.swift) hands a storage nothing
//    else holds back as the thread's spare, its values destroyed by `empty`.
//
// An arity supplies only `make`, `empty` and whether its types bind the SwiftLog channel;
// each is inlined here where the arity's `withInjected` is specialised, so the stages cost
// what the same calls written out in each arity would.

extension InjectionContext {
    /// The synchronous scope: enter, bind and run `body`, end. Every synchronous
    /// `withInjected` is this call.
    @inlinable
    static func _scope<R, Failure: Error>(
        bindingSwiftLog bindsSwiftLog: Bool,
        make: (Unmanaged<ContextStorage>?) -> ContextStorage?,
        empty: (ContextStorage) -> Void,
        _ body: () throws(Failure) -> R
    ) throws(Failure) -> R {
        let scope = InjectionContext(storage: make(Binding.currentStorage()))
        #if SwiftLog
        if bindsSwiftLog { return try scope._runBridgingSwiftLogAndEnd(body, empty: empty) }
        #endif
        return try scope._runAndEnd(body, empty: empty)
    }

    /// Stages 2 and 3 of the synchronous scope, on the context stage 1 made. Consuming, so
    /// the only reference count traffic is the binding's own copy.
    @inlinable
    consuming func _runAndEnd<R, Failure: Error>(
        _ body: () throws(Failure) -> R,
        empty: (ContextStorage) -> Void
    ) throws(Failure) -> R {
        let outcome = _bound(body)
        ContextStorage.recycle(&storage, empty: empty)
        return try outcome.get()
    }

    #if SwiftLog
    /// `_runAndEnd(_:empty:)` with swift-log's task-local logger bound too (`SwiftLogChannel`).
    @inlinable
    consuming func _runBridgingSwiftLogAndEnd<R, Failure: Error>(
        _ body: () throws(Failure) -> R,
        empty: (ContextStorage) -> Void
    ) throws(Failure) -> R {
        let outcome = SwiftLogChannel.withBridge { _bound(body) }
        ContextStorage.recycle(&storage, empty: empty)
        return try outcome.get()
    }
    #endif

    /// The asynchronous scope: the same stages, on the caller's isolation, the end in a
    /// `defer` (it runs however the body leaves, cancellation included). Every asynchronous
    /// `withInjected` is this call.
    @inlinable
    static func _scope<R, Failure: Error>(
        bindingSwiftLog bindsSwiftLog: Bool,
        make: (Unmanaged<ContextStorage>?) -> ContextStorage?,
        empty: (ContextStorage) -> Void,
        isolation: isolated (any Actor)?,
        _ body: () async throws(Failure) -> R
    ) async throws(Failure) -> R {
        var scope = InjectionContext(storage: make(Binding.currentStorage()))
        defer { ContextStorage.recycle(&scope.storage, empty: empty) }
        #if SwiftLog
        if bindsSwiftLog { return try await scope._bindBridgingSwiftLog(isolation: isolation, body) }
        #endif
        return try await scope._bind(isolation: isolation, body)
    }

    /// Whether a scope of these types binds swift-log's task-local too: one of them is the
    /// logger (`Injectable._bindsSwiftLogChannel`, a constant per type, folded where the
    /// call is specialised; always false without the SwiftLog trait).
    @inlinable
    static func _bindsSwiftLog<each V: Injectable>(_ types: repeat (each V).Type) -> Bool {
        #if SwiftLog
        for type in repeat each types {
            if type._bindsSwiftLogChannel { return true }
        }
        #endif
        return false
    }
}
