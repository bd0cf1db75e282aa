// SPDX-License-Identifier: Apache-2.0

// Carried values at a server's door, counted: the same requests as the time benchmarks'
// "carrying:" rows (both from CarryingFixtures), and their floor, one swift-crypto
// HMAC-SHA256 check.
import Ambient
import CarryingFixtures

let carryingCases: [String: @Sendable (Int) -> Void] = [
    "floor: swift-crypto HMAC-SHA256 check of 97 bytes": { count in
        let floor = HMACFloor()
        for _ in 0..<count { consume(floor.check()) }
    },
    // The fixtures are globals of another module: read once, outside the loops, so the
    // loops count the decoding and not the globals' accessors.
    "carrying: a request carrying none, signed trust": { count in
        let (carried, trust, headers) = (carryingTypes, carryingTrust, ordinaryHeaders)
        for _ in 0..<count { consume(carried.decodeSkippingInvalid(headers, trusting: trust)) }
    },
    "carrying: verify two signed fields": { count in
        let (carried, trust, signed) = (carryingTypes, carryingTrust, signedHeaders(as: .fields))
        for _ in 0..<count { consume(carried.decodeSkippingInvalid(signed, trusting: trust)) }
    },
    "carrying: verify two signed baggage entries": { count in
        let (carried, trust, signed) = (carryingTypes, carryingTrust, signedHeaders(as: .baggage))
        for _ in 0..<count { consume(carried.decodeSkippingInvalid(signed, as: .baggage, trusting: trust)) }
    },
    "carrying: sign two fields": { count in
        let (carried, outgoing, signer) = (carryingTypes, carryingOutgoing, PropagationSigner.hmacSHA256(carryingKey))
        for _ in 0..<count { consume(carried.encode(outgoing, signingWith: signer)) }
    },
]
