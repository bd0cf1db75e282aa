/// What a ``RandomSource`` draws from.
protocol RandomBackend: Sendable, CustomStringConvertible {
    func next() -> UInt64
}
