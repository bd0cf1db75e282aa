// SPDX-License-Identifier: Apache-2.0

import AmbientCore
// Why: the live source is the system's generator.

/// The system's generator: ``RandomSource/live``.
struct SystemRandomBackend: RandomBackend {
    func next() -> UInt64 {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }

    var description: String { "RandomSource.live" }
}
