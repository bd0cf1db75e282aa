// Carried values at a server's door (trait SwiftCrypto): what a request costs the receiver.
// The request headers are a dictionary of eight ordinary headers, as a small request has,
// plus what the case carries. `run` lists "carrying:" in KILO: each sample handles 1,000
// requests; the budgets are absolute (issue 21: under 3 µs for two signed fields, under
// 100 ns and no allocation for a request that carries none).
import Ambient
import Benchmark
import Crypto
import Foundation

/// The tests' stand-in for feature flags.
struct BenchFlags: CarriableValue {
    var text: String
    static var defaultValue: BenchFlags { BenchFlags(text: "") }
    static var carrierKey: String { "flags" }
    var carrierEncoding: String? { text }
    init(text: String) { self.text = text }
    init(carrierEncoding: String) throws { text = carrierEncoding }
}

let benchKey = try! CarrierSigningKey(id: "bench", secret: Array(repeating: 0x42, count: 32))
let benchCarried = CarriedValues(Clock.self, BenchFlags.self)
let benchTrust = CarrierTrust.signed(by: [benchKey], maximumLifetime: .seconds(86_400))
let ordinaryHeaders: [String: String] = [
    "host": "api.example.com", "user-agent": "bench/1.0", "accept": "application/json",
    "accept-encoding": "gzip", "content-type": "application/json", "content-length": "42",
    "x-request-id": "7f2c", "traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
]

func registerCarryingBenchmarks(configuration: Benchmark.Configuration) {
    let signed = withInjected(Clock.fixed(Date(timeIntervalSinceReferenceDate: 43_200)), BenchFlags(text: "beta")) {
        ordinaryHeaders.merging(
            benchCarried.encode(.current, signingWith: .hmacSHA256(benchKey, lifetime: .seconds(3_600)))
        ) { $1 }
    }
    let baggage = withInjected(Clock.fixed(Date(timeIntervalSinceReferenceDate: 43_200)), BenchFlags(text: "beta")) {
        ordinaryHeaders.merging(
            benchCarried.encode(.current, as: .baggage, signingWith: .hmacSHA256(benchKey, lifetime: .seconds(3_600)))
        ) { $1 }
    }
    let forged = signed.merging(["ambient-flags": "admin"]) { $1 }

    func kilo(_ name: String, _ body: @escaping @Sendable () -> Void) {
        Benchmark("\(name) [task]", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations { body() }
        }
    }
    // The floors: what the carrier's lookups cost by themselves, and one HMAC-SHA256 of the
    // 97 bytes the two fields' signature covers, from a key hashed once (as Ambient does).
    let absent = ["ambient-clock", "ambient-flags", "ambient-signature"]
    kilo("floor: 3 absent lookups in [String: String]") {
        for key in absent { blackHole(ordinaryHeaders[key]) }
    }
    let keyed = HMAC<SHA256>(key: SymmetricKey(data: Array(repeating: UInt8(0x42), count: 32)))
    let message = Array(repeating: UInt8(0x61), count: 97)
    let code = Array(repeating: UInt8(0), count: 32)
    kilo("floor: swift-crypto HMAC-SHA256 check of 97 bytes") {
        var authenticator = keyed
        authenticator.update(data: message)
        blackHole(authenticator.finalize() == code)
    }
    kilo("carrying: a request carrying none, signed trust") {
        blackHole(benchCarried.decodeSkippingInvalid(ordinaryHeaders, trusting: benchTrust))
    }
    kilo("carrying: verify two signed fields") {
        blackHole(benchCarried.decodeSkippingInvalid(signed, trusting: benchTrust))
    }
    kilo("carrying: verify two signed baggage entries") {
        blackHole(benchCarried.decodeSkippingInvalid(baggage, as: .baggage, trusting: benchTrust))
    }
    kilo("carrying: reject two altered fields") {
        blackHole(benchCarried.decodeSkippingInvalid(forged, trusting: benchTrust))
    }
    let outgoing = InjectionContext().injecting(
        Clock.fixed(Date(timeIntervalSinceReferenceDate: 43_200)), BenchFlags(text: "beta"))
    let signer = CarrierSigner.hmacSHA256(benchKey)
    kilo("carrying: sign two fields") {
        blackHole(benchCarried.encode(outgoing, signingWith: signer))
    }
}
