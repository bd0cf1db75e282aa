// SPDX-License-Identifier: Apache-2.0

#if SwiftLog
import Logging

// Why: with swift-log 1.16's own task-local `Logger.current` in the same file, either `Logger.current` must reach the logger a test or request injected.

// One logging channel. swift-log 1.16 has a task-local logger of its own
// (`Logging.Logger.current`, bound by `withLogger`), and in a file that imports both modules
// an unqualified `Logger.current` in an expression may resolve to either. With the SwiftLog
// trait on, the two are kept in step:
//
// - A scope that injects an Ambient `Logger` (`withInjected`, `InjectionContext.run`, a test
//   trait, a server middleware) also binds swift-log's task-local logger to `bridge`, whose
//   handler (`AmbientLogHandler`) sends each entry to Ambient's current logger: swift-log's
//   `Logger.current` reaches the injected one. A scope that only re-binds the logger already
//   current (a nested scope injecting other types) binds nothing more.
// - Ambient's `Logger.current` (the concrete read below) sees a `withLogger` scope opened
//   inside: where swift-log's task-local logger is bound, and not to `bridge`, it answers
//   `Logger.bridging(to:)` that logger, so entries reach it and still the injected one.
//
// The costs are the trait's only (the default build compiles none of this): a
// `withInjected` scope compares its types with Logger (`binds`, folded away where the call
// is specialised), a `run` of a captured context compares its Logger entry with the
// current context's (two lookups), and one that injects a new logger binds a second
// task-local; a read of Ambient's `Logger.current` also reads
// swift-log's task-local ("swift-log channel" rows of Benchmarks/instructions).

@usableFromInline
enum SwiftLogChannel {
    /// swift-log's logger for a scope that injects an Ambient logger: every entry goes to
    /// Ambient's current logger.
    static let bridge = Logging.Logger(label: label) { AmbientLogHandler(label: $0) }

    /// The bridge's label, by which a read knows it (a string compare, where asking for its
    /// handler's type costs a dynamic cast: hundreds of instructions a read).
    static let label = "Ambient.SwiftLogChannel"

    /// Whether running `context` must bind `bridge`: it injects a logger, and not the one
    /// already current.
    @usableFromInline
    static func mustBind(_ context: InjectionContext) -> Bool {
        guard let logger = context.storage?.address(of: Logger.self) else { return false }
        return Binding.currentStorage()?._withUnsafeGuaranteedRef { $0.address(of: Logger.self) } != logger
    }

    /// Whether a scope of this type binds swift-log's logger too: it is `Logger`. A
    /// comparison of type metadata that the specialised `withInjected` folds away, so a
    /// scope of other types pays nothing. (One form per arity of the ladder: the pack form
    /// is not folded in an async caller.)
    @inlinable
    static func binds<V: Injectable>(_: V.Type) -> Bool {
        V.self == Logger.self
    }

    /// Whether a scope of these types binds swift-log's logger too.
    @inlinable
    static func binds<A: Injectable, B: Injectable>(_: A.Type, _: B.Type) -> Bool {
        A.self == Logger.self || B.self == Logger.self
    }

    /// Whether a scope of these types binds swift-log's logger too.
    @inlinable
    static func binds<A: Injectable, B: Injectable, C: Injectable>(_: A.Type, _: B.Type, _: C.Type) -> Bool {
        A.self == Logger.self || B.self == Logger.self || C.self == Logger.self
    }

    /// Whether a scope of these types binds swift-log's logger too.
    @inlinable
    static func binds<each V: Injectable>(_ types: repeat (each V).Type) -> Bool {
        for type in repeat each types {
            if type == Logger.self { return true }
        }
        return false
    }

    /// Runs `body` with swift-log's task-local logger bound to `bridge`.
    @usableFromInline
    static func withBridge<R>(_ body: () -> R) -> R {
        withLogger(bridge) { _ in body() }
    }

    /// Runs `body` with swift-log's task-local logger bound to `bridge`.
    @usableFromInline
    static func withBridge<R>(
        isolation: isolated (any Actor)?, _ body: () async throws -> R
    ) async throws -> R {
        try await withLogger(bridge) { _ in try await body() }
    }
}

extension Logger {
    /// The logger for the code running now: the one injected by the innermost scope — or,
    /// where swift-log's `withLogger` bound a logger inside that scope, that logger, with the
    /// injected one still receiving every entry (``bridging(to:)``).
    ///
    /// With the SwiftLog trait on, Ambient's and swift-log's task-local loggers are one
    /// channel: whichever `Logger.current` a file's imports resolve to, an entry reaches the
    /// logger a test or request injected.
    ///
    /// ```swift
    /// withInjected(Logger.capturing()) {
    ///     Logging.Logger.current.info("swift-log's")   // reaches the capturing logger
    ///     Logger.current.info("Ambient's")              // and so does this
    /// }
    /// ```
    public static var current: Logger {
        let injected = _current(capturedIn: nil)
        let swiftLog = Logging.Logger.current
        // Unbound (swift-log's default has an empty label), or bound by an Ambient scope.
        if swiftLog.label.isEmpty || swiftLog.label == SwiftLogChannel.label { return injected }
        return bridging(to: swiftLog)
    }
}
#endif
