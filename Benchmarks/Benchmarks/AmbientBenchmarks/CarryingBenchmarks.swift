// SPDX-License-Identifier: Apache-2.0

// Carried values at a server's door (trait SwiftCrypto): what a request costs the receiver.
// The requests (eight ordinary headers, as a small request has, plus what the case carries)
// and the HMAC floor come from CarryingFixtures, which the instruction counts share. `run` lists "carrying:" in KILO: each sample handles 1,000
// requests; the budgets are absolute (under 3 µs for two signed fields, under
// 100 ns and no allocation for a request that carries none).
import Ambient
import Benchmark
import CarryingFixtures

func registerCarryingBenchmarks(configuration: Benchmark.Configuration) {
    // The fixtures are globals of another module: captured once, so the samples time the
    // decoding and not the globals' accessors.
    let (carried, trust, headers, outgoing) = (carryingTypes, carryingTrust, ordinaryHeaders, carryingOutgoing)
    let signed = signedHeaders(as: .fields)
    let baggage = signedHeaders(as: .baggage)
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
        for key in absent { blackHole(headers[key]) }
    }
    let floor = HMACFloor()
    kilo("floor: swift-crypto HMAC-SHA256 check of 97 bytes") {
        blackHole(floor.check())
    }
    kilo("carrying: a request carrying none, signed trust") {
        blackHole(carried.decodeSkippingInvalid(headers, trusting: trust))
    }
    kilo("carrying: verify two signed fields") {
        blackHole(carried.decodeSkippingInvalid(signed, trusting: trust))
    }
    kilo("carrying: verify two signed baggage entries") {
        blackHole(carried.decodeSkippingInvalid(baggage, as: .baggage, trusting: trust))
    }
    kilo("carrying: reject two altered fields") {
        blackHole(carried.decodeSkippingInvalid(forged, trusting: trust))
    }
    let signer = PropagationSigner.hmacSHA256(carryingKey)
    kilo("carrying: sign two fields") {
        blackHole(carried.encode(outgoing, signingWith: signer))
    }
}
