// SPDX-License-Identifier: Apache-2.0

// Why: app singletons are main-actor classes with state; they become ambient without losing isolation.

/// A main-actor-isolated type whose current value is *ambient*: the app singleton with
/// state — an analytics client, a session, a cache a view model fills — made replaceable
/// for the length of a scope, read as ``current`` from main-actor code.
///
/// Conform the class as it is: no `nonisolated`, no `@unchecked Sendable`, no lock. In an
/// app target that isolates to the main actor by default (Xcode 26's new targets) the class
/// already is; elsewhere the conformance makes it `@MainActor`.
///
/// ```swift
/// final class AnalyticsClient: MainActorAmbientValue {
///     static let shared = AnalyticsClient()
///     static var defaultValue: AnalyticsClient { shared }
///
///     private(set) var events: [String] = []
///     func track(_ event: String) { events.append(event) }
/// }
///
/// final class CheckoutViewModel {
///     func pay() { AnalyticsClient.current.track("pay") }   // was AnalyticsClient.shared
/// }
///
/// @MainActor @Test func payIsTracked() {
///     let analytics = AnalyticsClient()
///     withInjected(analytics) { CheckoutViewModel().pay() }
///     #expect(analytics.events == ["pay"])                  // the very instance the code used
/// }
/// ```
///
/// Everything else is as for ``AmbientValue``: the same scopes (one ``withInjected(_:operation:)``
/// may inject both kinds), the same lookup order, strict mode, process-wide scopes and
/// carrying. What differs is where the value may be read: ``current``, ``defaultValue`` and
/// ``testValue`` are main-actor-isolated, so the compiler keeps every read on the main
/// actor, where the class's state lives. A value injected in a scope is still visible to the
/// scope's child tasks; they read it when they run on the main actor.
///
/// Use ``AmbientValue`` instead for values any thread may read: structures, `Sendable`
/// classes, and — in a Swift 5 language-mode module — a legacy class that does its own
/// locking (`final class Cache: AmbientValue, @unchecked Sendable`).
@MainActor
public protocol MainActorAmbientValue: Injectable {
    /// The live value: what ``current`` returns when nothing is injected. Usually the
    /// class's shared instance.
    static var defaultValue: Self { get }

    /// What ``current`` returns under strict mode (``StrictMode``) when this type was not
    /// injected. `nil` (the default) means ``defaultValue``. Strict mode reports the read
    /// either way.
    static var testValue: Self? { get }

    /// Whether strict mode lets this type be read live without reporting it. `false` by
    /// default.
    static var allowsLiveReadsUnderStrictMode: Bool { get }
}

extension MainActorAmbientValue {
    /// No test value: strict mode falls back to ``defaultValue`` (and reports the read).
    public static var testValue: Self? {
        nil
    }

    /// `false`: strict mode reports live reads of this type.
    public static var allowsLiveReadsUnderStrictMode: Bool {
        false
    }

    /// The value in effect here: injected by the innermost enclosing scope, else by an
    /// active process-wide scope, else ``defaultValue``. The same lookup, and the same cost,
    /// as ``AmbientValue/current``.
    ///
    /// ```swift
    /// AnalyticsClient.current.track("opened")
    /// ```
    @inlinable
    public static var current: Self {
        _lookup(
            capturedIn: nil, live: { defaultValue }, unbound: { _notBoundHere(flags: $0, bound: $1, capturedIn: nil) })
    }

    /// The cold half of ``current``, out of line (see `AmbientValue._notBoundHere`).
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
