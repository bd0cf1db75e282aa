// SPDX-License-Identifier: Apache-2.0

import AmbientCore
// Why: a seeded generator that gives the same numbers on every platform and Swift version.

/// A seeded, reproducible generator (SplitMix64): ``RandomSource/seeded(_:)``.
final class SplitMix64: RandomBackend {
    private let seed: UInt64
    private let state: Locked<UInt64>

    init(seed: UInt64) {
        self.seed = seed
        self.state = Locked(seed)
    }

    func next() -> UInt64 {
        let z = state.withLock { state -> UInt64 in
            state &+= 0x9E37_79B9_7F4A_7C15
            return state
        }
        var mixed = z
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    var description: String { "RandomSource.seeded(\(seed))" }
}
