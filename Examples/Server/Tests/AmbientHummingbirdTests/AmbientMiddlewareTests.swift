// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientHummingbird
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

// Why: AmbientHummingbird's own tests: the middleware on a bare router (the token service's
// tests cover the same module inside an application).

/// The value the tests' middleware makes current from a request header.
struct Tenant: AmbientValue, Equatable {
    var name: String
    static var defaultValue: Tenant { Tenant(name: "none") }
}

extension HTTPField.Name {
    static let tenant = Self("tenant")!
}

@Suite("AmbientHummingbird: the middleware")
struct AmbientMiddlewareTests {
    static let noon = Date(timeIntervalSinceReferenceDate: 43_200)

    /// A bare application whose router has an `AmbientMiddleware` making the `tenant`
    /// header's value current (on top of `capturing`), and the routes `configure` adds.
    func application(
        capturing: InjectionContext? = nil, _ configure: (Router<BasicRequestContext>) -> Void
    ) -> some ApplicationProtocol {
        let router = Router()
        router.add(
            middleware: AmbientMiddleware(capturing: capturing) { request, _ in
                InjectionContext().injecting(Tenant(name: request.headers[.tenant] ?? "missing"))
            })
        configure(router)
        return Application(router: router)
    }

    /// `GET path` with the tenant header, the body as a string.
    func get(_ app: some ApplicationProtocol, _ path: String, tenant: String = "acme") async throws -> String {
        try await app.test(.router) { client in
            try await client.execute(uri: path, method: .get, headers: [.tenant: tenant]) { response in
                String(buffer: response.body)
            }
        }
    }

    @Test func aRouteSeesTheValuesTheMiddlewareMakes() async throws {
        let app = application { $0.get("tenant") { _, _ in Tenant.current.name } }
        #expect(try await get(app, "tenant") == "acme")
        #expect(Tenant.current.name == "none")
    }

    @Test func eachRequestSeesItsOwn() async throws {
        let app = application { $0.get("tenant") { _, _ in Tenant.current.name } }
        async let first = get(app, "tenant", tenant: "globex")
        async let second = get(app, "tenant", tenant: "initech")
        #expect(try await [first, second] == ["globex", "initech"])
    }

    @Test func theCapturedContextReachesEveryRequestUnderTheRequestsOwnValues() async throws {
        let captured = withInjected(Clock.fixed(Self.noon), Tenant(name: "captured")) { InjectionContext.current }
        let app = application(capturing: captured) {
            $0.get("both") { _, _ in "\(Tenant.current.name) \(Clock.current.now == Self.noon)" }
        }
        #expect(try await get(app, "both") == "acme true")
    }

    @Test func aChildTaskOfTheRouteInheritsTheValues() async throws {
        let app = application {
            $0.get("child") { _, _ in
                async let child = Tenant.current.name
                return await child
            }
        }
        #expect(try await get(app, "child", tenant: "umbrella") == "umbrella")
    }
}
