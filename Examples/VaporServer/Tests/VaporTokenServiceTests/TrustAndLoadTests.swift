// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientTesting
import Foundation
import Testing
import Vapor
import VaporTesting
import VaporTokenService

// Why: a client forging headers gets what it would without them, the drop is reported once on the request's logger, and requests never see each other's values.

@Suite("Vapor: forged values, one logging channel, concurrent requests")
struct TrustAndLoadTests {
    /// The headers a client sends: the test's values, carried in `format`, then altered by
    /// `forge`.
    static func forged(
        _ format: PropagationFormat, key: PropagationSigningKey?, forge: (inout HTTPHeaders) -> Void = { _ in }
    )
        -> HTTPHeaders
    {
        var headers = HTTPHeaders()
        withInjected(Clock.fixed(noon), Tenant("enterprise")) {
            PropagatedValues.vaporTokenService.encode(.current, as: format, signingWith: key.map { .hmacSHA256($0) }) {
                headers.add(name: $0, value: $1)
            }
        }
        forge(&headers)
        return headers
    }

    static let attacks: [(String, HTTPHeaders)] = [
        ("unsigned fields", forged(.fields, key: nil)),
        ("unsigned baggage", forged(.baggage, key: nil)),
        ("fields signed with another key", forged(.fields, key: otherKey)),
        ("baggage signed with another key", forged(.baggage, key: otherKey)),
        (
            "a signed tenant altered",
            forged(.fields, key: testKey) { $0.replaceOrAdd(name: "ambient-tenant", value: "enterprisf") }
        ),
        ("a field added to signed ones", forged(.fields, key: testKey) { $0.add(name: "ambient-tenant", value: "x") }),
    ]

    @Test(arguments: 0..<attacks.count)
    func aForgedRequestGetsWhatItWouldWithoutItsHeaders(attack: Int) async throws {
        let (name, headers) = Self.attacks[attack]
        let capture = Ambient.Logger.capturing()
        let seen = try await withTokenService(capturing: InjectionContext().injecting(capture)) {
            try await $0.testing(method: .running(port: 0)).seen(headers: headers)
        }
        #expect(seen.clockIsLive && seen.tenant == "anonymous", "\(name): \(seen)")
        let warnings = capture.captured.filter { $0.message == "dropped a propagated value" }
        #expect(!warnings.isEmpty, "\(name): reported on the request's logger")
    }

    @Test func anUnqualifiedLoggerCurrentReachesTheInjectedLogger() async throws {
        // The route logs through `Logger.current` in a file importing Vapor and Ambient.
        let capture = Ambient.Logger.capturing()
        try await withTokenService(capturing: InjectionContext().injecting(capture)) { app in
            _ = try await app.testing(method: .running(port: 0)).sendRequest(.POST, "log")
        }
        #expect(capture.captured.map(\.message).contains("unqualified"))
    }

    @Test func twoHundredConcurrentRequestsEachSeeOnlyTheirOwn() async throws {
        // A real server and Vapor's own HTTP client (VaporTesting's `.running` starts the
        // server per request, one request at a time).
        let mixed = try await withTokenService { app in
            try await app.server.start(address: .hostname("127.0.0.1", port: 0))
            let port = try #require(app.http.server.shared.localAddress?.port)
            let mixed = try await withThrowingTaskGroup(of: (String, Seen).self) { group in
                for index in 0..<200 {
                    let headers = withInjected(Clock.fixed(noon + Double(index)), Tenant("t\(index)")) {
                        signedHeaders()
                    }
                    group.addTask {
                        let response = try await app.client.get(
                            "http://127.0.0.1:\(port)/ambient/future", headers: headers)
                        return ("t\(index)", Seen(response.body.map { String(buffer: $0) } ?? ""))
                    }
                }
                var mixed: [String] = []
                var requests: Set<String> = []
                for try await (tenant, seen) in group {
                    let index = Double(tenant.dropFirst())!
                    if seen.tenant != tenant || seen.clock != noon.timeIntervalSinceReferenceDate + index {
                        mixed.append("\(tenant): \(seen)")
                    }
                    requests.insert(seen.request)
                }
                #expect(requests.count == 200, "every request its own ID")
                return mixed
            }
            await app.server.shutdown()
            return mixed
        }
        #expect(mixed.isEmpty, "\(mixed.count) of 200 saw another's values: \(mixed.prefix(3))")
    }
}
