// SPDX-License-Identifier: Apache-2.0

import AmbientCore
// Why: randomness is ambient too, so tests can make it reproducible.

/// The ambient source of randomness, usable anywhere a `RandomNumberGenerator` is.
///
/// ```swift
/// func rollDice() -> Int {
///     var random = RandomSource.current
///     return Int.random(in: 1...6, using: &random)
/// }
///
/// withInjected(RandomSource.seeded(42)) {
///     let rolls = (0..<3).map { _ in rollDice() }   // the same three on every run
/// }
/// ```
///
/// Copies share one stream: every read of `RandomSource.current` inside a scope draws
/// from the injected generator's single sequence.
public struct RandomSource: AmbientValue, RandomNumberGenerator, CustomStringConvertible {
    private let source: any RandomBackend

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        source.next()
    }

    /// The system's generator (`SystemRandomNumberGenerator`).
    public static let live = RandomSource(source: SystemRandomBackend())

    /// The live source.
    public static var defaultValue: RandomSource {
        live
    }

    /// A deterministic stream: SplitMix64 (Steele, Lea & Flood, 2014) started at `seed`.
    /// `next()` returns the same sequence on every platform and Swift version; values
    /// derived from it (`Int.random(in:using:)`, `shuffled(using:)`) are stable as long as
    /// the standard library's algorithms are.
    ///
    /// The first values for seed 0 are `0xE220A8397B1DCDAF`, `0x6E789E6AA1B965F4`,
    /// `0x06C45D188009454F`.
    public static func seeded(_ seed: UInt64) -> RandomSource {
        RandomSource(source: SplitMix64(seed: seed))
    }

    /// Which source this is.
    public var description: String {
        source.description
    }
}
