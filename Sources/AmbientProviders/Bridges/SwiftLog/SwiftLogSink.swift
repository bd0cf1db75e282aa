// SPDX-License-Identifier: Apache-2.0

import AmbientCore
#if SwiftLog
import Logging

// Why: Ambient's entries can go on to a server's swift-log backend, level and metadata kept.

/// A ``LogSink`` that writes Ambient's entries to a swift-log `Logger`: level, message,
/// metadata (as `.string` values), file, function and line kept. ``Logger/init(swiftLog:)``
/// and ``Logger/bridging(to:)`` make loggers that use it.
///
/// ```swift
/// let sink = SwiftLogSink(Logging.Logger(label: "app"))
/// let bridged = Logger(sink: sink, level: .debug)
/// ```
///
/// An entry that swift-log hands back to Ambient (its logger's handler is an
/// ``AmbientLogHandler``) does not go round again: that handler writes it to
/// ``Logger/live`` if no Ambient logger has had it yet, and drops it otherwise.
public struct SwiftLogSink: LogSink, CustomStringConvertible {
    /// The swift-log logger entries go to.
    public let logger: Logging.Logger

    /// Where ``Logger/bridging(to:)`` keeps the logger a scope had injected: entries at or
    /// above `level` go to `sink` too.
    struct Alongside: Sendable {
        let sink: any LogSink
        let level: Logger.Level
    }

    let alongside: Alongside?

    /// A sink writing to `logger`.
    public init(_ logger: Logging.Logger) {
        self.init(logger, alongside: nil)
    }

    init(_ logger: Logging.Logger, alongside: Alongside?) {
        self.logger = logger
        self.alongside = alongside
    }

    /// Writes `entry` to ``logger`` (which drops it below its own level), and to the
    /// logger kept alongside, if any, at its level.
    public func write(_ entry: Logger.Entry) {
        var delivered = false
        if let alongside, entry.level >= alongside.level {
            alongside.sink.write(entry)
            delivered = true
        }
        let level = entry.level.swiftLogLevel
        guard level >= logger.logLevel else { return }
        let previous = LogLoopGuard.exchange(delivered ? Self.delivered : Self.undelivered)
        defer { _ = LogLoopGuard.exchange(previous) }
        logger.log(
            level: level, "\(entry.message)", metadata: entry.metadata.swiftLogMetadata,
            source: nil, file: entry.fileID, function: entry.function, line: entry.line)
    }

    /// `swiftLog("app")`, with what it writes alongside.
    public var description: String {
        "swiftLog(\"\(logger.label)\"\(alongside.map { ", alongside: \($0.sink)" } ?? ""))"
    }

    /// The values of the thread's in-flight flag (`_ambient_log_in_flight`, set while an
    /// entry is on its way from Ambient to swift-log): an Ambient sink besides swift-log
    /// has it already…
    static let delivered: Int32 = 1
    /// …or only swift-log has it.
    static let undelivered: Int32 = 2
}
#endif
