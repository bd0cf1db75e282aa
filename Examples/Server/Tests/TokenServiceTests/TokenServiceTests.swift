// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TokenService

@Suite("Token service", .injecting(Clock.fixed(noon), UUIDGenerator.incrementing))
struct TokenServiceTests {
    init() { instrumented }

    /// Hummingbird encodes dates as ISO 8601.
    let decoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    @Test func anEnterpriseTokenLivesADay() async throws {
        let token = try await tokenService().test(.router) { client in
            try await client.execute(uri: "/tokens", method: .post, headers: [.tenant: "enterprise", .requestID: "r1"])
            {
                try decoder.decode(Token.self, from: $0.body)
            }
        }
        #expect(
            token
                == Token(
                    id: "00000000-0000-0000-0000-000000000000", issuedAt: noon, expiresAt: noon + 86_400,
                    request: "r1"))
    }

    @Test func aTokenExpiresAfterAnHour() async throws {
        let app = tokenService()
        try await app.test(.router) { client in
            let token = try await client.execute(uri: "/tokens", method: .post) {
                try decoder.decode(Token.self, from: $0.body)
            }
            #expect(token.expiresAt == noon + 3_600)
            let check = { (clock: Clock) in
                try await withInjected(clock) {
                    try await client.execute(uri: "/tokens/\(token.id)", method: .get) {
                        try decoder.decode(TokenCheck.self, from: $0.body).valid
                    }
                }
            }
            #expect(try await check(.fixed(noon + 3_599)))
            #expect(try await check(.fixed(noon + 3_600)) == false)
        }
    }

    @Test func eachTestGetsItsOwnIDs() async throws {
        // `.injecting` builds the suite's UUIDGenerator.incrementing afresh for each test:
        // this test's first token is 0 too, whichever test ran first.
        let id = try await tokenService().test(.router) { client in
            try await client.execute(uri: "/tokens", method: .post) {
                try decoder.decode(Token.self, from: $0.body).id
            }
        }
        #expect(id == "00000000-0000-0000-0000-000000000000")
    }

    @Test(arguments: [TestingSetup.router, .live])
    func theBridgeToTheRequestsLoggerNeverHidesTheTestsLogger(setup: TestingSetup) async throws {
        let log = Ambient.Logger.capturing()
        try await withInjected(log) {
            _ = try await tokenService().test(setup) { client in
                try await client.execute(uri: "/tokens", method: .post, headers: [.requestID: "r7"])
            }
        }
        let issued = try #require(log.captured.first { $0.message == "issued token" })
        #expect(issued.metadata["request"] == "r7")
        #expect(issued.metadata["token"] == "00000000-0000-0000-0000-000000000000")
    }

    @Test func aHeaderNobodySignedIsIgnoredAndLogged() async throws {
        let log = Ambient.Logger.capturing()
        let seen = try await withInjected(log) {
            try await tokenService().test(.live) { client in
                try await client.seen(headers: [HTTPField.Name("ambient-clock")!: "yesterday"])
            }
        }
        #expect(seen.clock == noon.timeIntervalSinceReferenceDate, "the suite's clock, not the header's")
        let warning = try #require(log.captured.first { $0.level == .warning })
        #expect(warning.metadata["key"] == "ambient-clock")
        #expect(warning.metadata["reason"] == "not signed (this receiver accepts signed fields only)")
    }

    @Test func twoHundredConcurrentRequestsEachSeeOnlyTheirOwnValues() async throws {
        let mismatches = try await tokenService().test(.ahc(.http)) { client in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        let tenant = index.isMultiple(of: 2) ? "enterprise" : "startup"
                        let seen = try await withInjected(
                            Clock.fixed(Date(timeIntervalSinceReferenceDate: Double(index)))
                        ) {
                            try await client.seen(
                                headers: HTTPFields([
                                    .init(name: .tenant, value: tenant), .init(name: .requestID, value: "r\(index)"),
                                ])
                                .carryingAmbientValues())
                        }
                        let expected = Seen(
                            clock: Double(index), flags: index.isMultiple(of: 2) ? "long-lived" : "short-lived",
                            request: "r\(index)")
                        return seen == expected ? 0 : 1
                    }
                }
                return try await group.reduce(0, +)
            }
        }
        #expect(mismatches == 0)
    }
}
