// SPDX-License-Identifier: Apache-2.0

import AmbientCore
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

/// AmbientProviders' half of the channel: the bridge, registered with the core's
/// `SwiftLogChannel` when the first `Logger` is made.
enum SwiftLogBridge {
    /// The bridge's label, by which a read knows it (a string compare, where asking for its
    /// handler's type costs a dynamic cast: hundreds of instructions a read).
    static let label = "Ambient.SwiftLogChannel"

    /// Registers `Logger` and the bridge with the core, once: every `Logger` initialiser
    /// reads this before the value exists.
    /// `V`'s injected value: `AmbientValue.current` itself, which the concrete
    /// `Logger.current` below shadows (a generic context sees only the protocol's).
    @inline(__always)
    static func injected<V: AmbientValue>(_: V.Type) -> V {
        V.current
    }

    static let registered: Void = SwiftLogChannel.register(
        SwiftLogChannelRegistration(
            type: Logger.self, bridge: Logging.Logger(label: label) { AmbientLogHandler(label: $0) }))
}

extension Logger {
    /// A scope that injects a logger binds swift-log's task-local logger to the bridge too.
    @_documentation(visibility: internal) @inlinable public static var _bindsSwiftLogChannel: Bool { true }

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
        let injected = SwiftLogBridge.injected(Logger.self)
        let swiftLog = Logging.Logger.current
        // Unbound (swift-log's default has an empty label), or bound by an Ambient scope.
        if swiftLog.label.isEmpty || swiftLog.label == SwiftLogBridge.label { return injected }
        return bridging(to: swiftLog)
    }
}
#endif
