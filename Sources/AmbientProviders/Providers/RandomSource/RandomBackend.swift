// SPDX-License-Identifier: Apache-2.0

import AmbientCore
// Why: a random source is shared by its copies: one stream behind one reference.

/// What a ``RandomSource`` draws from.
protocol RandomBackend: Sendable, CustomStringConvertible {
    func next() -> UInt64
}
