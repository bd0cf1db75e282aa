// SPDX-License-Identifier: Apache-2.0

import AmbientCore
// Why: silence, for tests and benchmarks that log but do not care.

/// Drops every entry.
public struct DiscardingLogSink: LogSink, CustomStringConvertible {
    /// A sink that writes nothing.
    public init() {}

    /// Does nothing.
    public func write(_ entry: Logger.Entry) {}

    /// `discarding`.
    public var description: String { "discarding" }
}
