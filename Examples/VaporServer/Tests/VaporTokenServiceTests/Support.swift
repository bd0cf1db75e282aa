// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation
import Vapor
import VaporTesting
import VaporTokenService

// Why: what every test of the Vapor example shares: its key, its app, its reading of what a handler saw.

let noon = Date(timeIntervalSinceReferenceDate: 43_200)

/// The tests' signing key: the test client signs with it and the server accepts it, as a
/// deployment's test environment would configure both.
let testKey = try! PropagationSigningKey(id: "test", secret: Array("a test key, 32 bytes or longer!!".utf8))

/// A key the server does not accept.
let otherKey = try! PropagationSigningKey(id: "test", secret: Array("another key that is 32 bytes long".utf8))

/// Runs `body` with the token service, set up with `capturing` and trusting `testKey`, and
/// shuts it down after. Without `middleware`, the app has Vapor's default middleware only,
/// as an app that never added `AmbientMiddleware` has.
func withTokenService<R>(
    capturing: InjectionContext? = nil, middleware: Bool = true, _ body: (Application) async throws -> R
) async throws -> R {
    let app = try await Application.make(.testing)
    app.http.server.configuration.port = 0
    app.configureTokenService(capturing: capturing, keys: [testKey])
    if !middleware {
        var defaults = Middlewares()
        defaults.use(RouteLoggingMiddleware(logLevel: .info))
        defaults.use(ErrorMiddleware.default(environment: app.environment))
        app.middleware = defaults
    }
    do {
        let result = try await body(app)
        try await app.asyncShutdown()
        return result
    } catch {
        try? await app.asyncShutdown()
        throw error
    }
}

/// The values current here, as fields signed with `key` (a test client's headers).
func signedHeaders(_ key: PropagationSigningKey = testKey, as format: PropagationFormat = .fields) -> HTTPHeaders {
    var headers = HTTPHeaders()
    PropagatedValues.vaporTokenService.encode(.current, as: format, signingWith: .hmacSHA256(key)) {
        headers.add(name: $0, value: $1)
    }
    return headers
}

extension TestingApplicationTester {
    /// What the handler at `path` saw.
    func seen(_ path: String = "ambient", headers: HTTPHeaders = [:]) async throws -> Seen {
        let response = try await sendRequest(.GET, path, headers: headers)
        return Seen(response.body.string)
    }
}

/// What a handler reported: `clock=… tenant=… request=…`.
struct Seen: Equatable, CustomStringConvertible {
    var clock: Double
    var tenant: String
    var request: String

    init(_ body: String) {
        var fields: [String: String] = [:]
        for pair in body.split(separator: " ") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        clock = Double(fields["clock"] ?? "") ?? .nan
        tenant = fields["tenant"] ?? ""
        request = fields["request"] ?? ""
    }

    /// Whether `clock` is the real time (within ten minutes).
    var clockIsLive: Bool { abs(clock - Date().timeIntervalSinceReferenceDate) < 600 }

    /// Whether the handler saw the test's values: noon, the `enterprise` tenant.
    var sawTheTestsValues: Bool { clock == noon.timeIntervalSinceReferenceDate && tenant == "enterprise" }

    var description: String { "clock=\(clock) tenant=\(tenant) request=\(request)" }
}
