// SPDX-License-Identifier: Apache-2.0

import _AmbientShims

// Why: the one protocol a type conforms to so that call sites read `T.current` instead of a singleton.

/// A type whose current value is *ambient*: read from wherever the code happens to be
/// running, and replaceable for the length of a scope with ``withInjected(_:operation:)``.
///
/// Conforming is the whole job. Supply the live value, and every call site gets
/// ``current``:
///
/// ```swift
/// struct FeatureFlags: AmbientValue {
///     var newCheckout: Bool
///     static var defaultValue: FeatureFlags { FeatureFlags(newCheckout: false) }
/// }
///
/// func checkoutTitle() -> String {
///     FeatureFlags.current.newCheckout ? "Pay now" : "Checkout"
/// }
///
/// // In a test (or anywhere): only this scope, only this task or thread.
/// withInjected(FeatureFlags(newCheckout: true)) {
///     assert(checkoutTitle() == "Pay now")
/// }
/// ```
///
/// The providers Ambient ships are written exactly like this; nothing in the mechanism
/// knows about them.
///
/// ## Where `current` comes from
/// 1. the innermost ``withInjected(_:operation:)`` (or ``InjectionContext/run(_:)``) scope on this
///    task — or, in synchronous code outside any task, on this thread;
/// 2. otherwise an active ``withInjectedProcessWide(_:operation:)`` scope, if this task or
///    thread may see it: it carries no binding of its own (a legacy thread), or its binding
///    was made inside that scope (the scope's own task, the tasks it starts, contexts
///    captured there);
/// 3. otherwise, under an enabled ``StrictMode`` that does not allow the type, the read is
///    reported and ``testValue`` is used if the type has one;
/// 4. otherwise ``defaultValue``.
///
/// A process that never injects anything pays one atomic load per read before step 3.
public protocol AmbientValue: Injectable {
    /// The live value: what ``current`` returns when nothing is injected.
    ///
    /// It is evaluated on every such read, so make it cheap (return a stored singleton or
    /// a small value, never build something expensive here).
    static var defaultValue: Self { get }

    /// What ``current`` returns under strict mode (``StrictMode``) when this type was not
    /// injected: a harmless stand-in for tests. `nil` (the default) means
    /// ``defaultValue``. Strict mode reports the read either way.
    static var testValue: Self? { get }

    /// Whether strict mode lets this type be read live without reporting it (a type that is
    /// harmless to leave real in tests, such as a logger writing to stderr). `false` by
    /// default.
    static var allowsLiveReadsUnderStrictMode: Bool { get }
}

extension AmbientValue {
    /// No test value: strict mode falls back to ``defaultValue`` (and reports the read).
    public static var testValue: Self? {
        nil
    }

    /// `false`: strict mode reports live reads of this type.
    public static var allowsLiveReadsUnderStrictMode: Bool {
        false
    }
}

extension AmbientValue {
    /// The value in effect here: injected by the innermost enclosing scope, else by an
    /// active process-wide scope, else ``defaultValue``.
    ///
    /// ```swift
    /// let flags = FeatureFlags.current
    /// ```
    ///
    /// The cost does not depend on how deeply scopes are nested, and a read never
    /// allocates.
    @inlinable
    public static var current: Self {
        _current(capturedIn: nil)
    }

    /// ``current``, with a captured context consulted after the binding here and before
    /// the cold half (what ``Captured`` reads; `nil` for a plain read).
    @inlinable @inline(__always)
    static func _current(capturedIn captured: ContextStorage?) -> Self {
        _lookup(
            capturedIn: captured, live: { defaultValue },
            unbound: { _notBoundHere(flags: $0, bound: $1, capturedIn: captured) })
    }

    /// The cold half of ``current``, kept out of line (but specialised per type): the
    /// process-wide scope, then strict mode's report and test value, then the default.
    @inlinable
    @inline(never)
    static func _notBoundHere(
        flags: UInt32, bound: Unmanaged<ContextStorage>?, capturedIn captured: ContextStorage?
    ) -> Self {
        _unbound(
            flags: flags, bound: bound, capturedIn: captured, exempt: { allowsLiveReadsUnderStrictMode },
            testValue: { testValue },
            live: { defaultValue })
    }
}
