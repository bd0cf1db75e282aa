// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientTesting
import AmbientVapor
import Foundation
import NIOCore
import Testing
import Vapor
import VaporTesting
import VaporTokenService

// Why: Vapor 4's EventLoopFuture routes and NIO hops are where request values got lost; each style is checked on a real server.

/// What each route style sees on a running server, the request's values sent signed: the
/// body of an async or EventLoopFuture route, and the callbacks NIO runs on the event loop
/// or a thread pool — on `request.eventLoop` (the defaults: outside the request's task) and
/// on `request.ambientEventLoop` (the request's values).
@Suite("Vapor route styles and NIO hops")
struct RouteStyleTests {
    static let headers = withInjected(Clock.fixed(noon), Tenant("enterprise")) { signedHeaders() }

    func seen(_ path: String) async throws -> [Seen] {
        try await withTokenService { app in
            let response = try await app.testing(method: .running(port: 0)).sendRequest(
                .GET, path, headers: Self.headers)
            return response.body.string.split(separator: "|").map { Seen(String($0)) }
        }
    }

    @Test func anAsyncRouteSeesTheRequestsValues() async throws {
        #expect(try await seen("ambient").allSatisfy(\.sawTheTestsValues))
    }

    @Test func anEventLoopFutureRoutesBodySeesThem() async throws {
        #expect(try await seen("ambient/future").allSatisfy(\.sawTheTestsValues))
    }

    @Test func submitOnTheRequestsEventLoopDoesNot() async throws {
        let seen = try await seen("ambient/submit")
        #expect(seen.allSatisfy { $0.clockIsLive && $0.tenant == "anonymous" }, "NIO ran it outside the task: \(seen)")
    }

    @Test func submitAndItsCallbacksOnTheAmbientEventLoopDo() async throws {
        let seen = try await seen("ambient/bound-submit")
        #expect(seen.count == 2 && seen.allSatisfy(\.sawTheTestsValues), "\(seen)")
    }

    @Test func aFutureHoppedToTheAmbientEventLoopRunsItsCallbacksWithThem() async throws {
        #expect(try await seen("ambient/hop").allSatisfy(\.sawTheTestsValues))
    }

    @Test func aThreadPoolDoesNotUnlessTheWorkIsBound() async throws {
        let unbound = try await seen("ambient/thread-pool")
        #expect(unbound.allSatisfy { $0.clockIsLive && $0.tenant == "anonymous" }, "\(unbound)")
        #expect(try await seen("ambient/bound-thread-pool").allSatisfy(\.sawTheTestsValues))
    }

    @Test func aStreamingBodysCallbacksOnTheAmbientEventLoopDo() async throws {
        let body = try await post("ambient/stream", bytes: 5_000)
        #expect(Seen(body).sawTheTestsValues && body.hasSuffix("bytes=5000"), "\(body)")
    }

    @Test func aStreamingBodysDrainCallbackDoesNotUnlessItIsBound() async throws {
        // Each chunk as the channel reads it, on a running server: NIO calls the handler,
        // outside the request's task and the middleware's binding.
        let unbound = try await post("ambient/drain", bytes: 300_000).split(separator: "|").map { Seen(String($0)) }
        #expect(unbound.count > 1 && unbound.allSatisfy { $0.clockIsLive && $0.tenant == "anonymous" }, "\(unbound)")
        let bound = try await post("ambient/drain-bound", bytes: 300_000).split(separator: "|").map { Seen(String($0)) }
        #expect(bound.count > 1 && bound.allSatisfy(\.sawTheTestsValues), "\(bound)")
    }

    func post(_ path: String, bytes: Int) async throws -> String {
        try await withTokenService { app in
            try await app.testing(method: .running(port: 0)).sendRequest(
                .POST, path, headers: Self.headers, body: ByteBuffer(string: String(repeating: "x", count: bytes))
            ).body.string
        }
    }

    @Test(arguments: [0, 100])
    func aCollectingEventLoopFutureRouteSeesThemWhenItsBodyCameWithItsHead(bytes: Int) async throws {
        let body = try await post("ambient/collect", bytes: bytes)
        #expect(Seen(body).sawTheTestsValues && body.hasSuffix("bytes=\(bytes)"), "\(body)")
    }

    @Test(arguments: [5_000, 300_000])
    func aCollectingEventLoopFutureRouteWhoseBodyCameLaterDoesNot(bytes: Int) async throws {
        // Vapor calls it from the callback of the future collecting its body, which NIO runs
        // when the last part arrives: outside the middleware's binding.
        let body = try await post("ambient/collect", bytes: bytes)
        #expect(Seen(body).clockIsLive && body.hasSuffix("bytes=\(bytes)"), "\(body)")
    }

    @Test(arguments: [0, 5_000, 300_000])
    func itsBodyInRequestInjectionContextRunSeesThemAlways(bytes: Int) async throws {
        let body = try await post("ambient/collect-bound", bytes: bytes)
        #expect(Seen(body).sawTheTestsValues && body.hasSuffix("bytes=\(bytes)"), "\(body)")
    }

    @Test func anEventLoopFutureRouteChecksATokenByTheRequestsClock() async throws {
        // Issued at noon for an hour: valid at noon, expired when a signed header says 13:01.
        try await withTokenService { app in
            let tester = try app.testing(method: .running(port: 0))
            let token = try await tester.sendRequest(.POST, "tokens", headers: Self.headers).content.decode(Token.self)
            #expect(token.expiresAt == noon + 3_600 * 24, "an enterprise tenant's token lives a day")
            let atNoon = try await tester.sendRequest(.GET, "tokens/\(token.id)", headers: Self.headers)
            #expect(try atNoon.content.decode(TokenCheck.self).valid)
            let later = withInjected(Clock.fixed(noon + 86_401)) { signedHeaders() }
            let expired = try await tester.sendRequest(.GET, "tokens/\(token.id)", headers: later)
            #expect(try expired.content.decode(TokenCheck.self).valid == false)
        }
    }
}

/// The bound event loop on its own: a plain NIO loop, no server.
@Suite("BoundEventLoop")
struct BoundEventLoopTests {
    static let group = MultiThreadedEventLoopGroup.singleton

    @Test func everythingItRunsSeesItsValuesAndNothingElseDoes() async throws {
        let base = Self.group.next()
        let bound = BoundEventLoop(base, context: InjectionContext().injecting(Tenant("bound")))
        let seen = try await bound.submit { Tenant.current.name }
            .map { "\($0),\(Tenant.current.name)" }
            .flatMap { first in
                bound.scheduleTask(in: .milliseconds(2)) { "\(first),\(Tenant.current.name)" }.futureResult
            }
            .get()
        #expect(seen == "bound,bound,bound")
        #expect(try await base.submit { Tenant.current.name }.get() == "anonymous")
    }

    @Test func aPromiseCompletedOnTheBaseOutsideItsTasksRunsCallbacksBound() async throws {
        let base = Self.group.next()
        let bound = BoundEventLoop(base, context: InjectionContext().injecting(Tenant("bound")))
        let promise = bound.makePromise(of: Void.self)
        let seen = promise.futureResult.map { Tenant.current.name }
        base.execute { promise.succeed() }  // on the base's thread, in no task of the bound loop
        #expect(try await seen.get() == "bound")
    }

    @Test func aCancelledScheduledTaskNeverRuns() async throws {
        let bound = BoundEventLoop(Self.group.next(), context: InjectionContext())
        let scheduled = bound.scheduleTask(in: .seconds(60)) { Issue.record("ran after cancel") }
        scheduled.cancel()
        await #expect(throws: EventLoopError.self) { try await scheduled.futureResult.get() }
    }

    @Test func manyRequestsOnOneLoopEachSeeTheirOwn() async throws {
        let base = Self.group.next()
        let results = try await withThrowingTaskGroup(of: (String, String).self) { group in
            for index in 0..<200 {
                let bound = BoundEventLoop(base, context: InjectionContext().injecting(Tenant("t\(index)")))
                group.addTask {
                    let seen = try await base.submit {}.hop(to: bound).map { Tenant.current.name }.get()
                    return ("t\(index)", seen)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 200)
        #expect(results.filter { $0.0 != $0.1 }.isEmpty)
    }
}
