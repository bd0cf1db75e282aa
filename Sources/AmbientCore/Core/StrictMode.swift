// SPDX-License-Identifier: Apache-2.0

import _AmbientShims

// Why: a test that forgets to fake something should hear about it, not silently run live code.

/// Strict mode: inject it, and any ambient value read in its scope that was *not*
/// injected — that would fall through to its live ``AmbientValue/defaultValue`` — is
/// reported, and the type's ``AmbientValue/testValue`` (if it has one) is returned instead.
/// It finds the hidden singletons a test forgot to fake.
///
/// Test frameworks wrap it (AmbientTesting's `.strict()` trait and `InjectingTestCase`);
/// used directly it looks like this:
///
/// ```swift
/// let strict = StrictMode(allowing: [Logger.self]) { type in
///     print("\(type) was read but not injected")
/// }
/// withInjected(strict, Clock.fixed(noon)) {
///     _ = Clock.current      // injected: fine
///     _ = Logger.current     // allowed: fine
///     _ = Defaults.current   // reported, then Defaults.testValue ?? Defaults.defaultValue
/// }
/// ```
///
/// A type can opt out for good by declaring
/// ``AmbientValue/allowsLiveReadsUnderStrictMode`` `true`; a scope can allow more types
/// with `allowing:`.
///
/// ## Which reads are checked
///
/// | strict mode injected by | checks reads in |
/// | --- | --- |
/// | ``withInjected(_:operation:)``, AmbientTesting's `.strict()` trait, `InjectingTestCase` | the test's task, its child tasks, and work carried there with `bind`/`run` |
/// | ``withInjectedProcessWide(_:isolation:operation:)``, AmbientTesting's `.strict(allowing:everyThread:)` with `everyThread`, `InjectingTestCase`'s `strictModeOnEveryThread` | also every thread and task with no binding of its own: the `DispatchQueue` block or `Thread` someone forgot to `bind`, an event loop's callback no middleware bound |
///
/// The process-wide form catches the forgotten `bind`, which the first cannot (that code
/// never sees the test's context). Like every process-wide scope it is exclusive, and
/// while it is active it also sees unbound threads started by *other* tests, so use it
/// in suites that run `.serialized`:
///
/// ```swift
/// @Suite(.serialized) struct SyncTests {
///     @Test func syncNeverTouchesTheRealDefaults() async {
///         let liveReads = LiveReads()   // a thread-safe list of your own
///         let strict = StrictMode { type in liveReads.append("\(type)") }   // any thread
///         await withInjectedProcessWide(strict) { () async in
///             await SettingsSync().runOnItsOwnQueue()   // its queue reads Defaults.current
///         }
///         #expect(liveReads.all.isEmpty)   // fails: ["Defaults"]
///     }
/// }
/// ```
///
/// When it is off (never injected), it costs nothing on the read path; when on, only reads
/// that miss pay for the check. Values injected by a ``withInjectedProcessWide(_:operation:)``
/// scope count as injected for the code that scope reaches (its own task tree); a
/// process-wide scope opened by someone else — a parallel test — does not reach a strict
/// test at all, so such a read is reported.
public struct StrictMode: AmbientValue, CustomStringConvertible {
    let report: (@Sendable (any Injectable.Type) -> Void)?
    let allowed: Set<ObjectIdentifier>

    /// Strict mode that calls `report` with the type of every value read without being
    /// injected, except the types in `allowed`. `report` runs on the reading thread, once
    /// per read.
    public init(
        allowing allowed: [any Injectable.Type] = [],
        report: @escaping @Sendable (_ type: any Injectable.Type) -> Void
    ) {
        self.report = report
        self.allowed = Set(allowed.map { ObjectIdentifier($0) })
        _ambient_flags_set(RuntimeFlags.strict)
    }

    private init() {
        report = nil
        allowed = []
    }

    /// Strict mode switched off: every read may fall through to the live default.
    public static let off = StrictMode()

    /// Off.
    public static var defaultValue: StrictMode {
        off
    }

    /// Whether reads of values that were not injected are reported.
    public var isEnabled: Bool {
        report != nil
    }

    /// Whether `type` may be read without being injected.
    public func allows(_ type: any Injectable.Type) -> Bool {
        !isEnabled || allowed.contains(ObjectIdentifier(type))
    }

    /// `StrictMode(on, allowing 1 type)` or `StrictMode(off)`.
    public var description: String {
        guard isEnabled else { return "StrictMode(off)" }
        return "StrictMode(on, allowing \(allowed.count) \(allowed.count == 1 ? "type" : "types"))"
    }

    /// A read of `type` found nothing injected (and the type does not exempt itself):
    /// reports it if the strict mode in effect for that read says so. `true` when it
    /// reported, and the reader should use the type's `testValue` (if any) instead of the
    /// live default. The strict mode in effect is the one bound here, else the one in
    /// `captured` (a ``Captured`` read), else `processWide` (what the read's process-wide
    /// lookup found: no second hazard-pointer round trip), else off. Out of line and not
    /// generic: only reads that miss under strict mode come here.
    @usableFromInline
    static func reportsLiveRead(
        of type: any Injectable.Type,
        bound: Unmanaged<ContextStorage>?,
        captured: ContextStorage?,
        processWide: StrictMode?
    ) -> Bool {
        guard type != StrictMode.self else { return false }
        // No scope reached this read at all: a strict test that injected the type hears of it.
        if bound == nil, captured == nil { UnscopedReads.reportRead(of: type) }
        let strict =
            bound?._withUnsafeGuaranteedRef { $0.value(of: StrictMode.self) }
            ?? captured?.value(of: StrictMode.self) ?? processWide ?? .off
        guard !strict.allows(type) else { return false }
        strict.report?(type)
        return true
    }
}
