// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientVapor
import Foundation
import NIOConcurrencyHelpers
import Vapor

// Why: the token service's routes in every Vapor style — async, EventLoopFuture, NIO thread hops — read the request's values.

extension Application {
    /// Sets up the token service: `POST /tokens` issues a token for the request's tenant,
    /// `GET /tokens/:id` checks one (an EventLoopFuture route), and `/ambient/…` report what
    /// each route style sees (for the tests' tables).
    ///
    /// - Parameters:
    ///   - capturing: Values every request starts with (capture at configure: pass
    ///     `.current`), for a server whose requests do not run inside the caller's scope.
    ///   - keys: The carrier keys whose signed clock and tenant a request may bring; none
    ///     trusts nobody's.
    public func configureTokenService(capturing: InjectionContext? = nil, keys: [PropagationSigningKey] = []) {
        // doc-block: vapor-middleware
        middleware.use(
            AmbientMiddleware(
                capturing: capturing, propagating: .vaporTokenService,
                trusting: keys.isEmpty ? .nobody : .signed(by: keys)
            ) { request in
                var values = InjectionContext().injecting(RequestTag(id: request.id))
                if let tenant = request.headers.first(name: "x-tenant"),
                    let valid = try? Tenant(propagationEncoding: tenant)
                {
                    values = values.injecting(valid)
                }
                return values
            })
        // doc-block-end
        let store = TokenStore()

        post("tokens") { _ async -> Token in
            let token = Token.issue()
            store.insert(token)
            Ambient.Logger.current.info("issued token", metadata: ["token": token.id])
            return token
        }
        // An EventLoopFuture route, as Vapor 4 code before async/await is written.
        // doc-block: vapor-future-route
        get("tokens", ":id") { request -> EventLoopFuture<TokenCheck> in
            let id = request.parameters.get("id") ?? ""
            return request.ambientEventLoop.submit { store.token(id: id) }
                .unwrap(or: Abort(.notFound))
                .map { token in TokenCheck(id: id, valid: Clock.current.now < token.expiresAt) }
        }
        // doc-block-end

        // Unqualified, in a file importing Vapor (so swift-log) and Ambient: whichever
        // `Logger.current` the compiler picks, the entry reaches the logger injected for the
        // request (the SwiftLog trait's one channel).
        // doc-block: vapor-unqualified-logger
        post("log") { _ async -> String in
            Logger.current.info("unqualified")
            return "logged"
        }
        // doc-block-end

        // What each route style sees: `seen()` answers "clock=… tenant=… request=…".
        get("ambient") { _ async in Seen.now }
        get("ambient", "future") { request -> EventLoopFuture<String> in
            request.eventLoop.makeSucceededFuture(Seen.now)
        }
        get("ambient", "submit") { request -> EventLoopFuture<String> in
            request.eventLoop.submit { Seen.now }  // NIO runs it outside the request's task
        }
        get("ambient", "bound-submit") { request -> EventLoopFuture<String> in
            request.ambientEventLoop.submit { Seen.now }.map { "\($0) | \(Seen.now)" }
        }
        get("ambient", "hop") { request -> EventLoopFuture<String> in
            request.eventLoop.scheduleTask(in: .milliseconds(1)) {}.futureResult
                .hop(to: request.ambientEventLoop)
                .map { Seen.now }
        }
        get("ambient", "thread-pool") { request -> EventLoopFuture<String> in
            self.threadPool.runIfActive(eventLoop: request.eventLoop) { Seen.now }
        }
        get("ambient", "bound-thread-pool") { request -> EventLoopFuture<String> in
            self.threadPool.runIfActive(eventLoop: request.ambientEventLoop, request.injectionContext.bind { Seen.now })
        }
        // A collecting EventLoopFuture route: Vapor calls it once its body is in, from NIO's
        // callback when the body comes after the head (here: past a few kilobytes).
        on(.POST, "ambient", "collect", body: .collect(maxSize: "1mb")) { request -> EventLoopFuture<String> in
            request.eventLoop.makeSucceededFuture("\(Seen.now) bytes=\(request.body.data?.readableBytes ?? 0)")
        }
        // The same, its body run in the request's values wherever Vapor calls it.
        on(.POST, "ambient", "collect-bound", body: .collect(maxSize: "1mb")) { request -> EventLoopFuture<String> in
            request.injectionContext.run {
                request.eventLoop.makeSucceededFuture("\(Seen.now) bytes=\(request.body.data?.readableBytes ?? 0)")
            }
        }
        on(.POST, "ambient", "stream", body: .stream) { request -> EventLoopFuture<String> in
            request.body.collect(max: 1 << 16).hop(to: request.ambientEventLoop).map { body in
                "\(Seen.now) bytes=\(body?.readableBytes ?? 0)"
            }
        }
        // A streaming body drained directly: NIO calls the handler with each chunk as the
        // channel reads it, outside the middleware's binding.
        on(.POST, "ambient", "drain", body: .stream) { request -> EventLoopFuture<String> in
            Self.drain(request) { seen, part in Self.record(part, into: seen) }
        }
        // The same handler, bound to the request's values.
        on(.POST, "ambient", "drain-bound", body: .stream) { request -> EventLoopFuture<String> in
            Self.drain(request, request.injectionContext.bind { seen, part in Self.record(part, into: seen) })
        }
    }

    /// Drains `request`'s body through `handle`, which notes what each chunk sees; the
    /// notes, `|`-separated, once the body has ended.
    private static func drain(
        _ request: Request,
        _ handle: @escaping @Sendable (NIOLockedValueBox<[String]>, BodyStreamResult) -> Void
    ) -> EventLoopFuture<String> {
        let seen = NIOLockedValueBox<[String]>([])
        let promise = request.eventLoop.makePromise(of: String.self)
        request.body.drain { part in
            handle(seen, part)
            switch part {
            case .buffer: break
            case .error(let error): promise.fail(error)
            case .end: promise.succeed(seen.withLockedValue { $0.joined(separator: "|") })
            }
            return request.eventLoop.makeSucceededFuture(())
        }
        return promise.futureResult
    }

    /// What a chunk of a drained body sees, noted.
    private static func record(_ part: BodyStreamResult, into seen: NIOLockedValueBox<[String]>) {
        if case .buffer = part { seen.withLockedValue { $0.append(Seen.now) } }
    }
}

/// What a handler sees, as `GET /ambient` reports it.
public enum Seen {
    /// `clock=<seconds since 2001> tenant=<name> request=<id>`.
    public static var now: String {
        "clock=\(Clock.current.now.timeIntervalSinceReferenceDate) tenant=\(Tenant.current) request=\(RequestTag.current)"
    }
}

/// The request a handler serves: Vapor's request ID.
public struct RequestTag: AmbientValue, Equatable, CustomStringConvertible {
    /// The request's ID.
    public var id: String

    /// The tag of request `id`.
    public init(id: String) {
        self.id = id
    }

    /// Outside a request: `none`.
    public static var defaultValue: RequestTag { RequestTag(id: "none") }

    /// The ID.
    public var description: String { id }
}

/// An issued token.
public struct Token: Content, Equatable {
    /// Its ID, from `UUIDGenerator.current`.
    public var id: String
    /// When it was issued, by `Clock.current`.
    public var issuedAt: Date
    /// An hour later, or a day for an `enterprise` tenant.
    public var expiresAt: Date

    /// A token issued now, by the ambient clock, IDs and tenant.
    static func issue() -> Token {
        let now = Clock.current.now
        let lifetime: TimeInterval = Tenant.current.hasLongLivedTokens ? 86_400 : 3_600
        return Token(id: UUIDGenerator.current().uuidString, issuedAt: now, expiresAt: now + lifetime)
    }
}

/// Whether a token is still valid.
public struct TokenCheck: Content, Equatable {
    /// The token's ID.
    public var id: String
    /// Whether `Clock.current` is before its expiry.
    public var valid: Bool
}

/// Issued tokens, in memory.
final class TokenStore: Sendable {
    private let tokens = NIOLockedValueBox<[String: Token]>([:])

    func insert(_ token: Token) {
        tokens.withLockedValue { $0[token.id] = token }
    }

    func token(id: String) -> Token? {
        tokens.withLockedValue { $0[id] }
    }
}
