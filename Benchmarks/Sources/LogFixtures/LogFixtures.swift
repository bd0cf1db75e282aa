// SPDX-License-Identifier: Apache-2.0

// The swift-log bridges' fixtures, shared by the time benchmarks' "bridge:" rows and the
// instruction and allocation counts of the same rows: each library's entry handed to a
// handler or sink that consumes it and does nothing more.
import Ambient
import Logging

/// Keeps `value` alive to here and no further, out of line: a use the optimizer cannot drop.
@inline(never)
public func consumeEntry<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// A swift-log handler that consumes the event and nothing more: swift-log's own floor.
public struct ConsumingLogHandler: LogHandler {
    /// Every level: nothing is filtered out before the handler.
    public var logLevel: Logging.Logger.Level = .trace
    /// The handler's own metadata.
    public var metadata: Logging.Logger.Metadata = [:]

    /// A handler at `.trace`.
    public init() {}

    /// The handler's metadata under `key`.
    public subscript(metadataKey key: String) -> Logging.Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Consumes the message's text and the metadata.
    public func log(event: LogEvent) {
        consumeEntry(event.message.description)
        consumeEntry(event.metadata)
    }
}

/// An Ambient sink that consumes the entry and nothing more: Ambient's own floor.
public struct ConsumingLogSink: LogSink {
    /// A sink.
    public init() {}

    /// Consumes the entry.
    public func write(_ entry: Ambient.Logger.Entry) {
        consumeEntry(entry)
    }
}
