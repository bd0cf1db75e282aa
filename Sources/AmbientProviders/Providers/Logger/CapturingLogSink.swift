// SPDX-License-Identifier: Apache-2.0

import AmbientCore
// Why: a test asserts on what was logged: entries kept in memory.

/// Records entries in memory, in order, for ``Logger/captured``. Thread-safe.
public final class CapturingLogSink: LogSink, CustomStringConvertible {
    private let recorded = Locked<[Logger.Entry]>([])

    /// An empty sink.
    public init() {}

    /// Appends `entry`.
    public func write(_ entry: Logger.Entry) {
        recorded.withLock { $0.append(entry) }
    }

    /// Everything recorded so far, in order.
    public var entries: [Logger.Entry] {
        recorded.withLock { $0 }
    }

    /// Forgets everything recorded.
    public func removeAll() {
        recorded.withLock { $0.removeAll() }
    }

    /// `capturing(3 entries)`.
    public var description: String {
        let count = recorded.withLock { $0.count }
        return "capturing(\(count) \(count == 1 ? "entry" : "entries"))"
    }
}
