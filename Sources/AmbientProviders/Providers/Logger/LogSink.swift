// SPDX-License-Identifier: Apache-2.0

import AmbientCore
// Why: where entries go is pluggable: stderr, memory, a file, swift-log.

/// Where a ``Logger`` sends its entries. Implement it to bridge to another logging system.
public protocol LogSink: Sendable {
    /// Writes one entry. Called on the logging thread; must be thread-safe.
    func write(_ entry: Logger.Entry)
}
