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

protocol RandomBackend: Sendable, CustomStringConvertible {
    func next() -> UInt64
}

struct SystemRandomBackend: RandomBackend {
    func next() -> UInt64 {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }

    var description: String { "RandomSource.live" }
}

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
