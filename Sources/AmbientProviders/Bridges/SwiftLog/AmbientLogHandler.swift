// SPDX-License-Identifier: Apache-2.0

import AmbientCore
#if SwiftLog
import Logging

// Why: code that logs through swift-log reaches the Logger a test or request injected.

/// A swift-log `LogHandler` that writes into Ambient's `Logger.current`, read when each
/// entry is logged: code that logs with swift-log is then scoped and captured like any
/// ambient value.
///
/// ```swift
/// // Once, at startup: every swift-log logger writes through Ambient.
/// LoggingSystem.bootstrap(AmbientLogHandler.init)
///
/// // Or for one logger, without bootstrapping (tests can't bootstrap twice):
/// let log = Logging.Logger(label: "sync", factory: AmbientLogHandler.init)
///
/// // In a test:
/// let captured = Logger.capturing()
/// withInjected(captured) { log.info("synced", metadata: ["items": "3"]) }
/// #expect(captured.captured.map(\.message) == ["synced"])
/// ```
///
/// Levels map by name (the two have the same seven). Metadata is merged as swift-log
/// merges it — the handler's, then its metadata provider's, then the entry's — and each
/// value becomes its description (a nested dictionary as swift-log prints it: `["a": "1"]`); an entry's
/// `error` becomes the `"error"` key. File, function and line are kept; swift-log's
/// `source` is not (the entry's file ID starts with the module). The timestamp is
/// `Clock.current`'s, like any Ambient entry's.
///
/// Its ``logLevel`` starts at `.trace`, so the level that filters is the current Ambient
/// logger's: a test's `Logger.capturing()` sees swift-log's debug entries too. Set it
/// higher to have swift-log drop entries before building them.
///
/// swift-log's own task-local `Logging.Logger.current` is a different value from Ambient's
/// `Logger.current`: `withLogger` binds the first, `withInjected` the second. A swift-log
/// logger whose handler is this one writes wherever Ambient's `Logger.current` is at that
/// moment, whichever of the two it was read from.
public struct AmbientLogHandler: LogHandler, CustomStringConvertible {
    /// The swift-log logger's label (not added to entries).
    public let label: String
    /// The least severe level swift-log hands to this handler.
    public var logLevel: Logging.Logger.Level = .trace
    /// Metadata added to every entry from this handler's logger.
    public var metadata: Logging.Logger.Metadata = [:]
    /// Supplies metadata at each log call, as swift-log's own handlers do.
    public var metadataProvider: Logging.Logger.MetadataProvider?

    /// A handler for the logger labelled `label`, with an optional metadata provider:
    /// `LoggingSystem.bootstrap(AmbientLogHandler.init)` passes the system's provider.
    public init(label: String, metadataProvider: Logging.Logger.MetadataProvider? = nil) {
        self.label = label
        self.metadataProvider = metadataProvider
    }

    /// One metadata value of this handler.
    public subscript(metadataKey key: String) -> Logging.Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes `event` to Ambient's `Logger.current`, if that logger's level lets it through.
    ///
    /// An entry that came from Ambient through a ``SwiftLogSink`` is not sent back to the
    /// logger it came from: it goes to ``Logger/live`` if no Ambient logger has had it, and
    /// is dropped otherwise.
    public func log(event: LogEvent) {
        let target: Logger
        switch LogLoopGuard.current {
        case 0: target = SwiftLogBridge.injected(Logger.self)  // Ambient's own: not the SwiftLogChannel read
        case SwiftLogSink.undelivered: target = Logger.live
        default: return  // delivered
        }
        let level = Logger.Level(event.level)
        guard level >= target.level else { return }
        target.log(
            level, event.message.description, metadata: entryMetadata(event),
            fileID: event.file, function: event.function, line: event.line)
    }

    /// The handler's metadata, then its provider's, then the event's, then its error.
    private func entryMetadata(_ event: LogEvent) -> Logger.Metadata {
        if metadata.isEmpty, metadataProvider == nil, event.error == nil {
            return event.metadata?.mapValues(\.description) ?? [:]  // the usual case: one copy
        }
        var merged = Logger.Metadata()
        merged.merge(swiftLog: metadata)
        if let provided = metadataProvider?.get() {
            merged.merge(swiftLog: provided)
        }
        if let own = event.metadata {
            merged.merge(swiftLog: own)
        }
        if let error = event.error {
            merged["error"] = "\(error)"
        }
        return merged
    }

    /// `AmbientLogHandler("app")`.
    public var description: String {
        "AmbientLogHandler(\"\(label)\")"
    }
}
#endif
