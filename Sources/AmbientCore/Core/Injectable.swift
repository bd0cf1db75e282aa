// SPDX-License-Identifier: Apache-2.0

import _AmbientShims

// Why: the lookup shared by AmbientValue and MainActorAmbientValue, generic over a type with no requirements.

/// A type whose values ``withInjected(_:operation:)`` accepts: every ``AmbientValue`` and
/// every ``MainActorAmbientValue``.
///
/// Conform to one of those two, not to this: it has no requirements and gives no
/// `current`. It exists so that one scope can inject both kinds at once, and so that lists
/// of types — strict mode's allowed types, ``InjectionContext/injectedTypes`` — can name
/// both:
///
/// ```swift
/// withInjected(Clock.fixed(noon), AnalyticsClient()) { … }   // an AmbientValue and a MainActorAmbientValue
/// let strict = StrictMode(allowing: [Logger.self, AnalyticsClient.self]) { print("\($0) read live") }
/// ```
///
/// Values are `Sendable` because a scope's values reach its child tasks and, carried, other
/// threads; a main-actor-isolated class is `Sendable` as it is.
public protocol Injectable: Sendable {
    #if SwiftLog
    /// Whether a scope that injects this type binds swift-log's task-local logger too: the
    /// SwiftLog trait's channel (`SwiftLogChannel.swift`). `true` for AmbientProviders'
    /// `Logger` alone; a constant the specialised `withInjected` folds away.
    @_documentation(visibility: internal) static var _bindsSwiftLogChannel: Bool { get }
    #endif
}

#if SwiftLog
extension Injectable {
    /// Not the logger: a scope of this type binds nothing more.
    @_documentation(visibility: internal) @inlinable public static var _bindsSwiftLogChannel: Bool { false }
}
#endif

// The read path both protocols share
// ==================================
// `AmbientValue.current` and `MainActorAmbientValue.current` differ only in where their
// `defaultValue` and `testValue` may be called; the lookup is the same code, inlined into
// each (the closures are inlined with it, so `AmbientValue`'s read costs no more for the
// main-actor form's sharing it).

extension Injectable {
    /// The lookup behind `current`: the value bound here, else `captured`'s (what
    /// ``Captured`` reads; `nil` for a plain read), else `unbound(flags, bound)` (the cold
    /// half). A process that never injected anything pays one atomic load and `live()`.
    /// The hit path copies the value straight from the bound storage into the result: no
    /// `Optional` in between.
    @inlinable @inline(__always)
    static func _lookup(
        capturedIn captured: ContextStorage?,
        live: () -> Self,
        unbound: (_ flags: UInt32, _ bound: Unmanaged<ContextStorage>?) -> Self
    ) -> Self {
        let flags = _ambient_flags_load()
        if flags == 0 { return live() }
        var bound: Unmanaged<ContextStorage>?
        if flags & RuntimeFlags.bound != 0 {
            bound = Binding.boundStorage()
            if let bound, let address = bound.address(of: Self.self) {
                return address.assumingMemoryBound(to: Self.self).pointee
            }
        }
        // (With `publicRead` set, the bound context is read in the cold half, and the captured
        // one after it there, to keep the order; plain reads pass no captured context.)
        if let captured, flags & RuntimeFlags.publicRead == 0, let address = captured.address(of: Self.self) {
            return address.assumingMemoryBound(to: Self.self).pointee
        }
        return unbound(flags, bound)
    }

    /// The cold half of the read: in a process whose borrowed read failed its self-check,
    /// the bound context through `TaskLocal.get()` and then `captured`; the process-wide scope
    /// (if one is active and this reader may see it), then strict mode's report and
    /// `testValue()` (unless `exempt()`), then `live()`. The strict mode that decides is found
    /// in the same order as a value: bound here, then `captured` (an object made under strict
    /// mode stays strict in its callbacks), then the process-wide scope. Inlined into each protocol's
    /// out-of-line `_notBoundHere`.
    @inlinable @inline(__always)
    static func _unbound(
        flags: UInt32,
        bound: Unmanaged<ContextStorage>?,
        capturedIn captured: ContextStorage?,
        exempt: () -> Bool,
        testValue: () -> Self?,
        live: () -> Self
    ) -> Self {
        // The common miss — nothing process-wide, no strict mode, the borrowed read in use —
        // costs one test.
        if flags & (RuntimeFlags.processWide | RuntimeFlags.strict | RuntimeFlags.publicRead) == 0 { return live() }
        var bound = bound
        if flags & RuntimeFlags.publicRead != 0 {
            bound = Binding.boundStorageThroughGet()
            if let address = bound?.address(of: Self.self) {
                return address.assumingMemoryBound(to: Self.self).pointee
            }
            if let captured, let address = captured.address(of: Self.self) {
                return address.assumingMemoryBound(to: Self.self).pointee
            }
        }
        // One hazard-pointer read of the process-wide snapshot serves both lookups: the value,
        // and (if it is not there) the strict mode that snapshot may hold.
        var processWideStrictMode: StrictMode?
        if flags & RuntimeFlags.processWide != 0 {
            let found = ProcessWide.value(
                of: Self.self, orStrictMode: flags & RuntimeFlags.strict != 0, seenFrom: bound)
            if let value = found.value { return value }
            processWideStrictMode = found.strictMode
        }
        if flags & RuntimeFlags.strict != 0, !exempt(),
            StrictMode.reportsLiveRead(
                of: Self.self, bound: bound, captured: captured, processWide: processWideStrictMode),
            let value = testValue()
        {
            return value
        }
        return live()
    }
}
