// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientVapor
import Foundation
import NIOCore
import Testing
import Vapor
import VaporTesting

// Why: AmbientVapor's own tests: the middleware and the bound event loop, on a bare app
// (the token service's tests cover the same module inside an application).

/// The value the tests' middleware makes current from a request header.
struct Tenant: AmbientValue, Equatable {
    var name: String
    static var defaultValue: Tenant { Tenant(name: "none") }
}

/// `GET path` with the `tenant` header, on a bare app whose routes `routes` adds behind an
/// `AmbientMiddleware` that makes the header's value current (on top of `capturing`): the
/// response's body as a string. The app is shut down after.
func get(
    _ path: String, tenant: String = "acme", capturing: InjectionContext? = nil, routes: (Application) -> Void
) async throws -> String {
    let app = try await Application.make(.testing)
    app.middleware.use(
        AmbientMiddleware(capturing: capturing) { request in
            InjectionContext().injecting(Tenant(name: request.headers.first(name: "tenant") ?? "missing"))
        })
    routes(app)
    do {
        let body = try await app.testing().sendRequest(.GET, path, headers: ["tenant": tenant]).body.string
        try await app.asyncShutdown()
        return body
    } catch {
        try? await app.asyncShutdown()
        throw error
    }
}

@Suite("AmbientVapor: the middleware and the bound event loop")
struct AmbientMiddlewareTests {
    static let noon = Date(timeIntervalSinceReferenceDate: 43_200)

    @Test func anAsyncRouteSeesTheValuesTheMiddlewareMakes() async throws {
        let body = try await get("tenant") { $0.get("tenant") { _ async in Tenant.current.name } }
        #expect(body == "acme")
        #expect(Tenant.current.name == "none")
    }

    @Test func anEventLoopFutureRouteSeesThemToo() async throws {
        let body = try await get("tenant", tenant: "globex") { app in
            app.get("tenant") { request -> EventLoopFuture<String> in
                request.eventLoop.makeSucceededFuture(Tenant.current.name)
            }
        }
        #expect(body == "globex")
    }

    @Test func theCapturedContextReachesEveryRequestUnderTheRequestsOwnValues() async throws {
        let captured = withInjected(Clock.fixed(Self.noon), Tenant(name: "captured")) { InjectionContext.current }
        let body = try await get("both", capturing: captured) { app in
            app.get("both") { _ async in "\(Tenant.current.name) \(Clock.current.now == Self.noon)" }
        }
        #expect(body == "acme true")
    }

    @Test func theRequestsContextIsOnTheRequest() async throws {
        let body = try await get("context", tenant: "initech") { app in
            app.get("context") { request async in request.injectionContext[Tenant.self]?.name ?? "absent" }
        }
        #expect(body == "initech")
    }

    @Test func workSubmittedToTheAmbientEventLoopSeesTheRequestsValuesAndToTheEventLoopDoesNot() async throws {
        let body = try await get("submit", tenant: "umbrella") { app in
            app.get("submit") { request -> EventLoopFuture<String> in
                let bound = request.ambientEventLoop.submit { Tenant.current.name }
                let plain = request.eventLoop.submit { Tenant.current.name }
                return bound.and(plain).map { "\($0) \($1)" }
            }
        }
        #expect(body == "umbrella none")
    }

    @Test func aBoundEventLoopRunsEverySubmissionInItsContext() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let context = withInjected(Tenant(name: "bound")) { InjectionContext.current }
        let loop = BoundEventLoop(group.next(), context: context)
        let submitted = try await loop.submit { Tenant.current.name }.get()
        let scheduled = try await loop.scheduleTask(in: .milliseconds(1)) { Tenant.current.name }.futureResult.get()
        let executed = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String, Error>) in
            loop.execute { continuation.resume(returning: Tenant.current.name) }
        }
        #expect([submitted, scheduled, executed] == ["bound", "bound", "bound"])
        #expect(loop.context[Tenant.self]?.name == "bound")
        try await group.shutdownGracefully()
    }
}
