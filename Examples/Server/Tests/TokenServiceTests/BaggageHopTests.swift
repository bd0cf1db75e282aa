// SPDX-License-Identifier: Apache-2.0

import Ambient
import BaggageForwarder
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TokenService

/// Service A (this test) injects and signs; service B (`BaggageForwarder`: Hummingbird, no
/// Ambient) only forwards the `baggage` header on its own request; service C (the token
/// service) verifies. All on loopback, each server stopped when its `test` returns.
@Suite("A → B → C: signed values in W3C baggage, through a hop without Ambient", .timeLimit(.minutes(1)))
struct BaggageHopTests {
    init() { instrumented }

    /// What C's handler sees when A sends `baggage` through B, which applies `alter`.
    func seenThroughTheHop(
        baggage: String, alter: @escaping @Sendable (String) -> String = { $0 }
    ) async throws -> Seen {
        try await tokenService().test(.live) { serviceC in
            let downstream = URL(string: "http://127.0.0.1:\(serviceC.port!)/ambient")!
            return try await buildForwarder(downstream: downstream, alterBaggage: alter).test(.live) { serviceB in
                try await serviceB.execute(uri: "/forward", method: .get, headers: [.baggage: baggage]) {
                    Seen(String(buffer: $0.body))
                }
            }
        }
    }

    /// Service A's outgoing baggage: its signed values after another service's entry.
    func baggageFromA(clock: Date) throws -> String {
        let signed = withInjected(Clock.fixed(clock), TenantFlags(longLivedTokens: true)) {
            PropagatedValues.tokenService.encode(.current, as: .baggage, signingWith: .hmacSHA256(testKey))
        }
        return "userId=alice," + (try #require(signed["baggage"]))
    }

    @Test func cSeesAsValuesThroughAHopThatOnlyForwards() async throws {
        let date = Date(timeIntervalSinceReferenceDate: 2_000.25)
        let seen = try await seenThroughTheHop(baggage: try baggageFromA(clock: date))
        #expect(seen.clock == date.timeIntervalSinceReferenceDate)
        #expect(seen.flags == "long-lived")
    }

    @Test func aHopThatAltersOneEntryGetsCNoneOfThemAndCReports() async throws {
        let date = Date(timeIntervalSinceReferenceDate: 2_000.5)
        let seen = try await seenThroughTheHop(baggage: try baggageFromA(clock: date)) { baggage in
            baggage.replacingOccurrences(of: "fixed:2000.5", with: "fixed:2000.75")
        }
        #expect(seen.clockIsLive, "the altered clock is dropped: \(seen)")
        #expect(seen.flags == "short-lived", "and so is the entry B left alone")
        let reports = reported.matching("fixed:2000.75")
        #expect(reports.map(\.reason) == [.signatureMismatch])
    }

    @Test func aHopThatReEscapesEveryEntryKeepsTheSignature() async throws {
        let date = Date(timeIntervalSinceReferenceDate: 2_001)
        let seen = try await seenThroughTheHop(baggage: try baggageFromA(clock: date)) { baggage in
            // As a propagator that decodes and re-encodes values more eagerly than Ambient.
            baggage.replacingOccurrences(of: "fixed:", with: "fixed%3A").replacingOccurrences(of: ",", with: " , ")
        }
        #expect(seen.clock == date.timeIntervalSinceReferenceDate)
    }
}
