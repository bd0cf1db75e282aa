// SPDX-License-Identifier: Apache-2.0

import AmbientCore
#if SwiftLog
import Logging

// Why: an app that logs through swift-log gets Ambient's entries there, levels and metadata intact.

// Level and metadata mapping between Ambient's `Logger` and swift-log's, and the loggers
// that send Ambient's entries to swift-log. The other way is `AmbientLogHandler`.

extension Logger.Level {
    /// The swift-log level of the same name (the two have the same seven levels).
    public var swiftLogLevel: Logging.Logger.Level {
        switch self {
        case .trace: .trace
        case .debug: .debug
        case .info: .info
        case .notice: .notice
        case .warning: .warning
        case .error: .error
        case .critical: .critical
        }
    }

    /// The level of the same name as swift-log's `level`.
    public init(_ level: Logging.Logger.Level) {
        switch level {
        case .trace: self = .trace
        case .debug: self = .debug
        case .info: self = .info
        case .notice: self = .notice
        case .warning: self = .warning
        case .error: self = .error
        case .critical: self = .critical
        }
    }
}

extension Logger {
    /// A logger whose entries go to the swift-log `logger`, at that logger's level.
    ///
    /// Its entries keep their level, metadata (as `.string` values) and source location;
    /// the timestamp is the swift-log handler's own, as swift-log has no field for one.
    ///
    /// ```swift
    /// let serverLog = Logging.Logger(label: "server")
    /// withInjected(Logger(swiftLog: serverLog)) {
    ///     Logger.current.info("ready")  // written by serverLog's handler
    /// }
    /// ```
    ///
    /// Injecting it replaces whatever logger was current: a test's ``capturing(level:)``
    /// logger would see nothing inside. Where a test may have injected one, use
    /// ``bridging(to:)``.
    public init(swiftLog logger: Logging.Logger) {
        self.init(sink: SwiftLogSink(logger), level: Level(logger.logLevel))
    }

    /// The logger for code that should log to the swift-log `logger` — a request's, say —
    /// without hiding a logger injected around it:
    ///
    /// - where no scope injected a `Logger`, it is `Logger(swiftLog: logger)`;
    /// - where one did (a test's ``capturing(level:)`` logger), entries go to `logger` and
    ///   still to the injected one, each at its own level, with the injected one's metadata;
    /// - where the injected one is itself a bridge, the new `logger` takes its place: an
    ///   entry reaches swift-log once.
    ///
    /// ```swift
    /// // A server middleware:
    /// try await withInjected(Logger.bridging(to: request.logger)) {
    ///     try await next(request, context)
    /// }
    /// ```
    public static func bridging(to logger: Logging.Logger) -> Logger {
        bridging(to: logger, over: InjectionContext.current[Logger.self])
    }

    /// ``bridging(to:)`` over `injected`, the logger a context holds (`nil`: none), for a
    /// context that is not current (`RequestContextRecipe`: no scope to enter for the read).
    package static func bridging(to logger: Logging.Logger, over injected: Logger?) -> Logger {
        guard let injected else {
            return Logger(swiftLog: logger)
        }
        let alongside: SwiftLogSink.Alongside?
        if let bridge = injected.sink as? SwiftLogSink {
            alongside = bridge.alongside
        } else if injected.discards {
            alongside = nil
        } else {
            alongside = SwiftLogSink.Alongside(sink: injected.sink, level: injected.level)
        }
        let swiftLogLevel = Level(logger.logLevel)
        let level = alongside.map { min($0.level, swiftLogLevel) } ?? swiftLogLevel
        return Logger(sink: SwiftLogSink(logger, alongside: alongside), level: level, metadata: injected.metadata)
    }
}

extension Logger.Metadata {
    /// Ambient's metadata as swift-log's: every value a `.string`.
    var swiftLogMetadata: Logging.Logger.Metadata {
        var metadata = Logging.Logger.Metadata(minimumCapacity: count)
        for (key, value) in self {
            metadata[key] = .string(value)
        }
        return metadata
    }

    /// Adds swift-log `metadata`, each value as its description (a dictionary or array as
    /// swift-log renders it: `["a": "1"]`); keys already here are replaced.
    mutating func merge(swiftLog metadata: Logging.Logger.Metadata) {
        for (key, value) in metadata {
            self[key] = value.description
        }
    }
}
#endif
