// Carried values at a server's door, counted (the SwiftCrypto trait, on in this package):
// the same requests as the time benchmarks' "carrying:" rows, and their floor, one
// HMAC-SHA256 check with swift-crypto from a key hashed once, as Ambient does it. A request is a dictionary of
// eight ordinary headers plus what it carries.
import Ambient
import Crypto
import Foundation

/// A carried stand-in for feature flags.
struct CountFlags: CarriableValue {
    var text: String
    static var defaultValue: CountFlags { CountFlags(text: "") }
    static var carrierKey: String { "flags" }
    var carrierEncoding: String? { text }
    init(text: String) { self.text = text }
    init(carrierEncoding: String) throws { text = carrierEncoding }
}

let countKey = try! CarrierSigningKey(id: "bench", secret: Array(repeating: 0x42, count: 32))
let countCarried = CarriedValues(Clock.self, CountFlags.self)
let countTrust = CarrierTrust.signed(by: [countKey], maximumLifetime: .seconds(86_400))
let countHeaders: [String: String] = [
    "host": "api.example.com", "user-agent": "bench/1.0", "accept": "application/json",
    "accept-encoding": "gzip", "content-type": "application/json", "content-length": "42",
    "x-request-id": "7f2c", "traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
]
let countOutgoing = InjectionContext().injecting(
    Clock.fixed(Date(timeIntervalSinceReferenceDate: 43_200)), CountFlags(text: "beta"))

func signedHeaders(as format: CarrierFormat) -> [String: String] {
    countHeaders.merging(
        countCarried.encode(countOutgoing, as: format, signingWith: .hmacSHA256(countKey, lifetime: .seconds(3_600)))
    ) { $1 }
}

let countHMAC = HMAC<SHA256>(key: SymmetricKey(data: Array(repeating: UInt8(0x42), count: 32)))

let carryingCases: [String: @Sendable (Int) -> Void] = [
    "floor: swift-crypto HMAC-SHA256 check of 97 bytes": { count in
        let message = Array(repeating: UInt8(0x61), count: 97)
        let code = Array(repeating: UInt8(0), count: 32)
        for _ in 0..<count {
            var authenticator = countHMAC
            authenticator.update(data: message)
            consume(authenticator.finalize() == code)
        }
    },
    "carrying: a request carrying none, signed trust": { count in
        for _ in 0..<count { consume(countCarried.decodeSkippingInvalid(countHeaders, trusting: countTrust)) }
    },
    "carrying: verify two signed fields": { count in
        let signed = signedHeaders(as: .fields)
        for _ in 0..<count { consume(countCarried.decodeSkippingInvalid(signed, trusting: countTrust)) }
    },
    "carrying: verify two signed baggage entries": { count in
        let signed = signedHeaders(as: .baggage)
        for _ in 0..<count {
            consume(countCarried.decodeSkippingInvalid(signed, as: .baggage, trusting: countTrust))
        }
    },
    "carrying: sign two fields": { count in
        let signer = CarrierSigner.hmacSHA256(countKey)
        for _ in 0..<count { consume(countCarried.encode(countOutgoing, signingWith: signer)) }
    },
]
