// SPDX-License-Identifier: Apache-2.0

// The requests the "carrying:" rows measure, shared by the time benchmarks
// (AmbientBenchmarks) and the instruction counts (InstructionCount), so both count the same
// bytes: eight ordinary headers, plus two values signed with HMAC-SHA256 (the SwiftCrypto
// trait), as fields or as W3C baggage; and the floor, one swift-crypto HMAC-SHA256 check of
// the 97 bytes the two fields' signature covers, from a key hashed once as Ambient does.
import Ambient
import Crypto
import Foundation

/// A carried stand-in for feature flags.
public struct PropagatedFlags: PropagatableValue {
    /// The flags' text.
    public var text: String
    /// No flags.
    public static var defaultValue: PropagatedFlags { PropagatedFlags(text: "") }
    /// `flags`: the field `ambient-flags`.
    public static var propagationKey: String { "flags" }
    /// The text.
    public var propagationEncoding: String? { text }
    /// Flags with this text.
    public init(text: String) { self.text = text }
    /// Flags with the text as it arrived.
    public init(propagationEncoding: String) throws { text = propagationEncoding }
}

/// The key both sides hold.
public let carryingKey = try! PropagationSigningKey(id: "bench", secret: Array(repeating: 0x42, count: 32))
/// What travels: the clock and the flags.
public let carryingTypes = PropagatedValues(Clock.self, PropagatedFlags.self)
/// The receiver's trust: signed with the key; a long maximum lifetime, so a long run's
/// signatures stay valid.
public let carryingTrust = PropagationTrust.signed(by: [carryingKey], maximumLifetime: .seconds(86_400))
/// A small request's own headers.
public let ordinaryHeaders: [String: String] = [
    "host": "api.example.com", "user-agent": "bench/1.0", "accept": "application/json",
    "accept-encoding": "gzip", "content-type": "application/json", "content-length": "42",
    "x-request-id": "7f2c", "traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
]
/// The sender's values: a fixed clock and flags.
public let carryingOutgoing = InjectionContext().injecting(
    Clock.fixed(Date(timeIntervalSinceReferenceDate: 43_200)), PropagatedFlags(text: "beta"))

/// The ordinary headers plus the sender's values, signed, in `format`.
public func signedHeaders(as format: PropagationFormat) -> [String: String] {
    ordinaryHeaders.merging(
        carryingTypes.encode(
            carryingOutgoing, as: format, signingWith: .hmacSHA256(carryingKey, lifetime: .seconds(3_600)))
    ) { $1 }
}

/// The floor: one HMAC-SHA256 check of 97 bytes against a 32-byte code, from a keyed state
/// copied per message, compared as Ambient compares (every byte, no early exit), and the
/// message handed over as Ambient hands it: as a `DataProtocol` whose regions are concrete
/// types (a `[UInt8]` or a buffer pointer costs swift-crypto's generic `update(data:)`
/// about 1,200 instructions more, in metadata lookups).
public struct HMACFloor: Sendable {
    let keyed = HMAC<SHA256>(key: SymmetricKey(data: Array(repeating: UInt8(0x42), count: 32)))
    let message = SingleRegion(bytes: Array(repeating: UInt8(0x61), count: 97))
    let code = Array(repeating: UInt8(0), count: 32)

    /// The floor's state.
    public init() {}

    /// One check.
    public func check() -> Bool {
        var authenticator = keyed
        authenticator.update(data: message)
        return authenticator.finalize().withUnsafeBytes { computed in
            var difference: UInt8 = 0
            for index in 0..<min(computed.count, code.count) {
                difference |= computed[index] ^ code[index]
            }
            return difference == 0 && computed.count == code.count
        }
    }
}

/// Bytes that are their own only region, with a concrete region collection and iterator.
struct SingleRegion: DataProtocol, ContiguousBytes, Sendable {
    let bytes: [UInt8]
    var startIndex: Int { bytes.startIndex }
    var endIndex: Int { bytes.endIndex }
    subscript(position: Int) -> UInt8 { bytes[position] }
    var regions: Regions { Regions(only: self) }
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }

    struct Regions: BidirectionalCollection {
        let only: SingleRegion
        var startIndex: Int { 0 }
        var endIndex: Int { 1 }
        subscript(position: Int) -> SingleRegion { only }
        func index(after index: Int) -> Int { index + 1 }
        func index(before index: Int) -> Int { index - 1 }
        func makeIterator() -> Iterator { Iterator(pending: only) }

        struct Iterator: IteratorProtocol {
            var pending: SingleRegion?
            mutating func next() -> SingleRegion? {
                let region = pending
                pending = nil
                return region
            }
        }
    }
}
