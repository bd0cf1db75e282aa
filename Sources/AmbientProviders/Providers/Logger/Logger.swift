// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: `print` and `NSLog` are singletons too: code logs through the ambient logger instead.

/// The ambient logger: levels, structured metadata and pluggable sinks, replaceable in
/// tests. Read it where code used to `print` or `NSLog`:
///
/// ```swift
/// func sync() {
///     Logger.current.info("sync started", metadata: ["items": "\(items.count)"])
/// }
///
/// // Add context for everything logged inside, without touching the callers:
/// withInjected(Logger.current.with(metadata: ["request": requestID])) {
///     handle(request)
/// }
///
/// // In a test:
/// let log = Logger.capturing()
/// withInjected(log) { sync() }
/// #expect(log.captured.map(\.message) == ["sync started"])
/// ```
///
/// Messages and metadata are autoclosures: below ``level`` they are never built. Each
/// entry records where it was logged (`#fileID`, `#function`, `#line`) and when, by
/// `Clock.current` — so a test with an injected clock gets deterministic timestamps.
///
/// ## Bridging to swift-log or anything else
/// With the package trait `SwiftLog`, `Logger(swiftLog:)` and `Logger.bridging(to:)` send
/// entries to a swift-log logger, and `AmbientLogHandler` sends swift-log's entries here
/// (<doc:Integrations>). For anything else, write a ``LogSink``:
///
/// ```swift
/// struct StandardOutputSink: LogSink {
///     func write(_ entry: Logger.Entry) {
///         print(entry)  // the standard one-line rendering
///     }
/// }
/// let logger = Logger(sink: StandardOutputSink(), level: .debug)
/// ```
public struct Logger: AmbientValue, CustomStringConvertible {
    /// The least severe level this logger writes; entries below it are dropped unbuilt.
    public var level: Level
    /// Metadata added to every entry (an entry's own metadata wins on a clash).
    public var metadata: Metadata
    /// Where entries go.
    public let sink: any LogSink

    /// A logger writing entries at `level` and above to `sink`.
    public init(sink: any LogSink, level: Level = .info, metadata: Metadata = [:]) {
        #if SwiftLog
        _ = SwiftLogBridge.registered
        #endif
        self.sink = sink
        self.level = level
        self.metadata = metadata
    }

    /// Severity, from least to most severe.
    public enum Level: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
        case trace, debug, info, notice, warning, error, critical

        /// Whether `lhs` is less severe than `rhs`.
        public static func < (lhs: Level, rhs: Level) -> Bool {
            lhs.rawValue < rhs.rawValue
        }

        /// The level's name: `"info"`.
        public var description: String {
            switch self {
            case .trace: "trace"
            case .debug: "debug"
            case .info: "info"
            case .notice: "notice"
            case .warning: "warning"
            case .error: "error"
            case .critical: "critical"
            }
        }
    }

    /// Structured context: string keys, string values.
    public typealias Metadata = [String: String]

    /// One logged entry, as a sink receives it.
    public struct Entry: Sendable, Hashable, CustomStringConvertible {
        /// Its severity.
        public var level: Level
        /// The message.
        public var message: String
        /// The logger's metadata merged with the entry's own.
        public var metadata: Metadata
        /// When it was logged, by `Clock.current`.
        public var date: Date
        /// Where it was logged: `Module/File.swift`.
        public var fileID: String
        /// The function it was logged in.
        public var function: String
        /// The line it was logged on.
        public var line: UInt

        /// Creates an entry (sinks receive them; tests may build expected ones).
        public init(
            level: Level, message: String, metadata: Metadata = [:], date: Date,
            fileID: String, function: String, line: UInt
        ) {
            self.level = level
            self.message = message
            self.metadata = metadata
            self.date = date
            self.fileID = fileID
            self.function = function
            self.line = line
        }

        /// The standard one-line rendering:
        /// `2001-01-01T00:00:00Z [info] sync started items=3 (App/Sync.swift:12)`.
        public var description: String {
            var line = "\(Entry.timestamp(date)) [\(level)] \(message)"
            for key in metadata.keys.sorted() {
                line += " \(key)=\(metadata[key]!)"
            }
            return line + " (\(fileID):\(self.line))"
        }

        private static func timestamp(_ date: Date) -> String {
            date.formatted(.iso8601)
        }
    }

    // MARK: - Logging

    /// Logs `message` at `level` if this logger's ``level`` lets it through.
    public func log(
        _ level: Level,
        _ message: @autoclosure () -> String,
        metadata: @autoclosure () -> Metadata = [:],
        fileID: String = #fileID,
        function: String = #function,
        line: UInt = #line
    ) {
        guard level >= self.level, !discards else { return }
        let own = metadata()
        // No merge (and no new dictionary) when one side is empty: the usual case.
        let merged =
            own.isEmpty ? self.metadata : self.metadata.isEmpty ? own : self.metadata.merging(own) { _, own in own }
        sink.write(
            Entry(
                level: level, message: message(), metadata: merged, date: Clock.current.now,
                fileID: fileID, function: function, line: line))
    }

    /// Logs at ``Level/trace``.
    public func trace(
        _ message: @autoclosure () -> String, metadata: @autoclosure () -> Metadata = [:],
        fileID: String = #fileID, function: String = #function, line: UInt = #line
    ) {
        log(.trace, message(), metadata: metadata(), fileID: fileID, function: function, line: line)
    }

    /// Logs at ``Level/debug``.
    public func debug(
        _ message: @autoclosure () -> String, metadata: @autoclosure () -> Metadata = [:],
        fileID: String = #fileID, function: String = #function, line: UInt = #line
    ) {
        log(.debug, message(), metadata: metadata(), fileID: fileID, function: function, line: line)
    }

    /// Logs at ``Level/info``.
    public func info(
        _ message: @autoclosure () -> String, metadata: @autoclosure () -> Metadata = [:],
        fileID: String = #fileID, function: String = #function, line: UInt = #line
    ) {
        log(.info, message(), metadata: metadata(), fileID: fileID, function: function, line: line)
    }

    /// Logs at ``Level/notice``.
    public func notice(
        _ message: @autoclosure () -> String, metadata: @autoclosure () -> Metadata = [:],
        fileID: String = #fileID, function: String = #function, line: UInt = #line
    ) {
        log(.notice, message(), metadata: metadata(), fileID: fileID, function: function, line: line)
    }

    /// Logs at ``Level/warning``.
    public func warning(
        _ message: @autoclosure () -> String, metadata: @autoclosure () -> Metadata = [:],
        fileID: String = #fileID, function: String = #function, line: UInt = #line
    ) {
        log(.warning, message(), metadata: metadata(), fileID: fileID, function: function, line: line)
    }

    /// Logs at ``Level/error``.
    public func error(
        _ message: @autoclosure () -> String, metadata: @autoclosure () -> Metadata = [:],
        fileID: String = #fileID, function: String = #function, line: UInt = #line
    ) {
        log(.error, message(), metadata: metadata(), fileID: fileID, function: function, line: line)
    }

    /// Logs at ``Level/critical``.
    public func critical(
        _ message: @autoclosure () -> String, metadata: @autoclosure () -> Metadata = [:],
        fileID: String = #fileID, function: String = #function, line: UInt = #line
    ) {
        log(.critical, message(), metadata: metadata(), fileID: fileID, function: function, line: line)
    }

    // MARK: - Deriving loggers

    /// This logger with `metadata` added to every entry (new keys win).
    ///
    /// ```swift
    /// withInjected(Logger.current.with(metadata: ["request": id])) { handle() }
    /// ```
    public func with(metadata: Metadata) -> Logger {
        var copy = self
        copy.metadata.merge(metadata) { _, new in new }
        return copy
    }

    /// This logger writing entries at `level` and above.
    public func with(level: Level) -> Logger {
        var copy = self
        copy.level = level
        return copy
    }

    // MARK: - Shipped loggers

    /// One line per entry on standard error (and to `os.Logger` on Apple platforms), from
    /// ``Level/info`` up.
    public static let live = Logger(sink: FileLogSink(), level: .info)

    /// The live logger.
    public static var defaultValue: Logger {
        live
    }

    /// Whether this logger writes where ``live`` does (a ``FileLogSink`` on standard error),
    /// whatever its level and metadata: what the one-file port's `print` and `NSLog` check, so
    /// that with no logger injected they write what Swift's and Foundation's write, where
    /// those write them.
    ///
    /// ```swift
    /// #expect(Logger.live.with(metadata: ["request": "1"]).writesLive)
    /// #expect(!Logger.capturing().writesLive)
    /// ```
    public var writesLive: Bool {
        (sink as? FileLogSink)?.isStandardError == true
    }

    /// A logger that records every entry (from ``Level/trace`` up, unless told otherwise)
    /// for assertions; read them with ``captured``. Thread-safe.
    public static func capturing(level: Level = .trace) -> Logger {
        Logger(sink: CapturingLogSink(), level: level)
    }

    /// A logger that drops everything (and builds no message).
    public static var discarding: Logger {
        var logger = Logger(sink: DiscardingLogSink(), level: .critical)
        logger.discards = true
        return logger
    }

    /// The entries a ``capturing(level:)`` logger (or one derived from it) has recorded, in
    /// order; empty for any other logger.
    public var captured: [Entry] {
        (sink as? CapturingLogSink)?.entries ?? []
    }

    /// A description of the sink, level and metadata.
    public var description: String {
        "Logger(\(sink), level: \(level)\(metadata.isEmpty ? "" : ", metadata: \(metadata)"))"
    }

    /// Set by ``discarding``: drop even critical entries without building them.
    private(set) var discards = false
}
