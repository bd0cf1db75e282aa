// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TokenService

/// What an attacker can send without the test key: each forgery gets exactly what the same
/// request gets without it. The attacks of the security review: a free tenant asking for the
/// enterprise token lifetime, and an expired token read as valid under a clock set back.
@Suite("Forged propagated values change nothing", .injecting(UUIDGenerator.incrementing))
struct TrustBoundaryTests {
    init() { instrumented }

    enum Forgery: String, CaseIterable, CustomStringConvertible {
        /// `ambient-*` headers, unsigned.
        case unsignedFields
        /// The same as W3C baggage entries.
        case unsignedBaggage
        /// Signed under the test key's id with another secret.
        case wrongSecret
        /// Signed with a key the server does not hold.
        case unknownKey
        /// A genuine signed request, edited: flags changed to long-lived.
        case tampered
        /// A genuine signed request from ten minutes ago, replayed.
        case expired
        /// A genuine signed clock, and unsigned flags added beside it.
        case unsignedFieldAdded
        /// A genuine signed request, its flags field sent a second time with another value
        /// (a server that took the second would apply it unverified).
        case signedFieldSentTwice

        var description: String { rawValue }

        /// The forged headers: the clock set to `clock`, the flags to long-lived.
        func headers(clock: Date) -> HTTPFields {
            let carried = PropagatedValues.tokenService
            let forged = InjectionContext().injecting(Clock.fixed(clock), TenantFlags(longLivedTokens: true))
            let attackerKey = try! PropagationSigningKey(id: "test", secret: attackerSecret)
            let fields: [String: String]
            switch self {
            case .unsignedFields:
                fields = carried.encode(forged)
            case .unsignedBaggage:
                fields = carried.encode(forged, as: .baggage)
            case .wrongSecret:
                fields = carried.encode(forged, signingWith: .hmacSHA256(attackerKey))
            case .unknownKey:
                let prod = try! PropagationSigningKey(id: "prod", secret: attackerSecret)
                fields = carried.encode(forged, signingWith: .hmacSHA256(prod))
            case .tampered:
                let genuine = InjectionContext().injecting(Clock.fixed(clock), TenantFlags(longLivedTokens: false))
                var signed = carried.encode(genuine, signingWith: .hmacSHA256(testKey))
                signed["ambient-tenant-flags"] = "long-lived"
                fields = signed
            case .expired:
                let tenMinutesAgo = Date().addingTimeInterval(-600)
                fields = carried.encode(forged, signingWith: .hmacSHA256(testKey, now: { tenMinutesAgo }))
            case .unsignedFieldAdded:
                var signed = carried.encode(
                    InjectionContext().injecting(Clock.fixed(noon)), signingWith: .hmacSHA256(testKey))
                signed["ambient-tenant-flags"] = "long-lived"
                fields = signed
            case .signedFieldSentTwice:
                let genuine = InjectionContext().injecting(Clock.fixed(clock), TenantFlags(longLivedTokens: false))
                fields = carried.encode(genuine, signingWith: .hmacSHA256(testKey))
            }
            var headers: HTTPFields = [.tenant: "free"]
            for (name, value) in fields { headers[HTTPField.Name(name)!] = value }
            if self == .signedFieldSentTwice {
                headers.append(HTTPField(name: HTTPField.Name("ambient-tenant-flags")!, value: "long-lived"))
            }
            return headers
        }

        /// Whether the forgery's clock is applied legitimately (the genuine signed part).
        var clockIsGenuinelySigned: Bool { self == .unsignedFieldAdded }
    }

    let decoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    @Test(arguments: [TestingSetup.router, .live], Forgery.allCases)
    func aFreeTenantGetsAnHourWhateverItForges(setup: TestingSetup, forgery: Forgery) async throws {
        let token = try await withInjected(Clock.fixed(noon)) {
            try await tokenService().test(setup) { client in
                try await client.execute(uri: "/tokens", method: .post, headers: forgery.headers(clock: noon)) {
                    try decoder.decode(Token.self, from: $0.body)
                }
            }
        }
        #expect(token.issuedAt == noon)
        #expect(token.expiresAt == noon + 3_600, "the free tenant's lifetime, not the forged long-lived one")
    }

    @Test(arguments: [TestingSetup.router, .live], Forgery.allCases)
    func anExpiredTokenStaysExpiredWhateverClockIsForged(setup: TestingSetup, forgery: Forgery) async throws {
        let app = tokenService()
        let token = try await withInjected(Clock.fixed(noon)) {
            try await app.test(setup) { client in
                try await client.execute(uri: "/tokens", method: .post) {
                    try decoder.decode(Token.self, from: $0.body)
                }
            }
        }
        // Two hours later the token has expired; the forgery sets the clock back to noon.
        let check = try await withInjected(Clock.fixed(noon + 7_200)) {
            try await app.test(setup) { client in
                try await client.execute(
                    uri: "/tokens/\(token.id)", method: .get, headers: forgery.headers(clock: noon + 60)
                ) { try decoder.decode(TokenCheck.self, from: $0.body) }
            }
        }
        #expect(check.valid == forgery.clockIsGenuinelySigned ? true : false)
    }

    @Test(arguments: Forgery.allCases)
    func theHandlerSeesWhatItWouldWithoutTheForgeryAndTheForgeryIsReported(forgery: Forgery) async throws {
        // A clock value no other test sends, to find this test's reports among all of them.
        let marker = Date(timeIntervalSinceReferenceDate: 1_000 + Double(Forgery.allCases.firstIndex(of: forgery)!))
        let (forged, honest) = try await withInjected(Clock.fixed(noon)) {
            try await tokenService().test(.live) { client in
                (
                    try await client.seen(headers: forgery.headers(clock: marker)),
                    try await client.seen(headers: [.tenant: "free"])
                )
            }
        }
        #expect(forged.flags == honest.flags)
        if !forgery.clockIsGenuinelySigned {
            #expect(forged == Seen(clock: honest.clock, flags: honest.flags, request: forged.request))
            let reports =
                reported.matching("fixed:\(marker.timeIntervalSinceReferenceDate)")
                + reported.matching("fixed%3A\(marker.timeIntervalSinceReferenceDate)")
            #expect(!reports.isEmpty, "the server reported the forged clock")
        }
    }

    @Test func theTestClientsSignedValuesDoReachTheHandler() async throws {
        let seen = try await tokenService().test(.live) { client in
            try await withInjected(Clock.fixed(noon), TenantFlags(longLivedTokens: true)) {
                try await client.seen(
                    headers: HTTPFields([.init(name: .tenant, value: "free")]).carryingAmbientValues())
            }
        }
        #expect(seen.clock == noon.timeIntervalSinceReferenceDate)
        #expect(seen.flags == "long-lived")
    }
}

/// The attacker's guessed secret: under the test key's id (`wrongSecret`), and under an id
/// the server does not hold (`unknownKey`).
let attackerSecret = Array("the attacker's guess, 32 bytes!!".utf8)
