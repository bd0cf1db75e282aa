// SPDX-License-Identifier: Apache-2.0

#if Vapor
import Ambient
import AmbientProviders
import Vapor

// Why: a Vapor app gets each request's values — captured, its own, signed propagated ones, its logger — by one line, in async and EventLoopFuture routes alike.

/// The per-request middleware for Vapor 4: every handler and everything it calls reads the
/// request's values, in async and EventLoopFuture routes alike.
///
/// ```swift
/// app.middleware.use(
///     AmbientMiddleware(propagating: PropagatedValues(Clock.self), trusting: .signed(by: keys)) { request in
///         InjectionContext().injecting(TenantFlags.of(tenant: request.headers.first(name: "x-tenant")))
///     })
/// ```
///
/// For each request it makes one context, each layer over the one before:
///
/// 1. the values captured when the middleware was made (`capturing:` — for a server whose
///    requests do not run inside the scope that built it: Vapor's `.running` test mode, a
///    server shared by tests), under the values current where the request runs;
/// 2. Ambient's logger bridged to the request's swift-log logger (`request.logger`, with
///    Vapor's request ID), without hiding a logger a test injected (`Logger.bridging(to:)`);
/// 3. the request's own values, from `values`;
/// 4. on top, the `propagated` values the request brought in `ambient-*` fields or W3C
///    `baggage` that `trust` accepts — by default none: a client's forged header changes
///    nothing, and is reported to `onInvalid`.
///
/// The handler runs inside that context; the context is also kept on the request
/// (``Vapor/Request/injectionContext``) with an event loop that binds it
/// (``Vapor/Request/ambientEventLoop``), for the EventLoopFuture callbacks a handler
/// chains, which NIO runs outside the request's task.
///
/// Add it after Vapor's `ErrorMiddleware` (`app.middleware.use(_:)` appends): the values
/// are current for every middleware after it and the route.
public struct AmbientMiddleware: Middleware {
    /// How each request's context is made (the layers above).
    public let recipe: RequestContextRecipe
    private let values: @Sendable (Request) throws -> InjectionContext

    /// The middleware.
    ///
    /// - Parameters:
    ///   - captured: Values every request starts with; `.current` captures the ones current
    ///     where the middleware is made (capture at configure).
    ///   - propagated: The types a request may bring in `ambient-*` fields or W3C `baggage`.
    ///   - trust: Whose propagated values to accept: by default nobody's
    ///     (`PropagationTrust.signed(by:)` with the SwiftCrypto trait accepts signed ones).
    ///   - limits: The most propagated text read per request.
    ///   - onInvalid: Reports each dropped propagated value: by default ten warnings a minute
    ///     on the request's logger.
    ///   - bridgingRequestLogger: Bridge Ambient's logger to `request.logger`.
    ///   - values: The request's own values (a thrown error fails the request). It runs with
    ///     the layers before it current: `Logger.current` is the request's bridged logger, to
    ///     add metadata to.
    public init(
        capturing captured: InjectionContext? = nil,
        propagating propagated: PropagatedValues? = nil,
        trusting trust: PropagationTrust = .nobody,
        limits: PropagationLimits = .default,
        onInvalid: RejectionReporter = RejectionReporter(report: RejectionReporter.logWarning),
        bridgingRequestLogger: Bool = true,
        values: @escaping @Sendable (Request) throws -> InjectionContext = { _ in InjectionContext() }
    ) {
        self.recipe = RequestContextRecipe(
            capturing: captured, propagating: propagated, trusting: trust, limits: limits, onInvalid: onInvalid,
            bridgingRequestLogger: bridgingRequestLogger)
        self.values = values
    }

    /// The context a request runs in: the layers above, over the values current here.
    public func context(for request: Request) throws -> InjectionContext {
        let headers = request.headers
        return try recipe.context(logger: request.logger, fields: { headers[$0] }, values: { try values(request) })
    }

    /// Runs the rest of the chain inside the request's context, on the request's event loop.
    ///
    /// On the loop, not in a task: Vapor calls an EventLoopFuture route from a callback of
    /// the future that collects its body, which NIO runs inline where the body is already
    /// there (a request without one, or whose body came with its head) — inside this
    /// binding, so the route's body sees the request's values; an async route's task, and
    /// every async middleware's after this one, inherit them. One exception: an async route
    /// that VaporTesting's `.inMemory` mode calls from a test's task gets its task made
    /// right there, so it inherits the test's task-locals too (a strict-mode report from the
    /// handler is then the test's own issue). An EventLoopFuture route that such a test calls
    /// runs on the loop, and its answer reaches the test only once the reports strict mode
    /// held back there are recorded as the test's: a `withKnownIssue` around the request sees
    /// them.
    public func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        let context: InjectionContext
        do {
            context = try self.context(for: request)
        } catch {
            return request.eventLoop.makeFailedFuture(error)
        }
        request.storage[RequestValuesKey.self] = BoundEventLoop(request.eventLoop, context: context)
        guard request.eventLoop.inEventLoop || Self.nextMakesTheTaskHere(request) else {
            let response = request.eventLoop.flatSubmit { context.run { next.respond(to: request) } }
            return Self.deliveringHeldReports(after: response, on: request.eventLoop)
        }
        return context.run { next.respond(to: request) }
    }

    /// `response`, answered only once the test that sent the request has recorded what the
    /// loop's work reported: the relay runs in a task made here, in the test's task (the one
    /// caller off the loop in a task is VaporTesting's `.inMemory` mode), so it inherits the
    /// test's task-locals, `withKnownIssue`'s included, and records the reports that strict
    /// mode held back from the loop's thread before the test's `await` returns. Outside a test
    /// whose trait watches for such reports, `response` itself.
    static func deliveringHeldReports(
        after response: EventLoopFuture<Response>, on loop: any EventLoop
    ) -> EventLoopFuture<Response> {
        guard withUnsafeCurrentTask(body: { $0 != nil }), let check = IssueReporter.current.pendingWork else {
            return response
        }
        let relayed = loop.makePromise(of: Response.self)
        Task {
            do {
                let answer = try await response.get()
                check.deliverHeldReports()
                relayed.succeed(answer)
            } catch {
                check.deliverHeldReports()
                relayed.fail(error)
            }
        }
        return relayed.futureResult
    }

    /// Whether the rest of the chain, called here off the request's event loop, is only an
    /// async route's task, made here, from inside a task: VaporTesting's `.inMemory` mode,
    /// which calls the responder from the test's task. Made here, the route's task inherits
    /// the test's task-locals as well as the request's values: Swift Testing's current test,
    /// so a strict-mode report from the handler is the test's own issue and its
    /// `withKnownIssue` sees it. Anything else — a middleware after this one, a route's
    /// group middleware, an EventLoopFuture route — runs on the loop, where NIO runs its
    /// callbacks inline.
    static func nextMakesTheTaskHere(_ request: Request) -> Bool {
        withUnsafeCurrentTask { $0 != nil }
            && request.route?.responder is any AsyncResponder
            && request.application.middleware.resolve().last is AmbientMiddleware
    }
}

/// What ``AmbientMiddleware`` keeps on a request: its event loop bound to its context
/// (which holds the context too).
enum RequestValuesKey: StorageKey {
    typealias Value = BoundEventLoop
}

extension Request {
    /// The values ``AmbientMiddleware`` made current for this request, or the values current
    /// here where no such middleware ran.
    ///
    /// ```swift
    /// let report = request.injectionContext.bind { Clock.current.now }
    /// ```
    public var injectionContext: InjectionContext {
        storage[RequestValuesKey.self]?.context ?? .current
    }

    /// The request's event loop, binding the request's values for everything it runs:
    /// `submit`, `execute`, `scheduleTask`, and the callbacks of every future made on it or
    /// hopped to it (`future.hop(to: request.ambientEventLoop)`).
    ///
    /// NIO runs a future's callbacks on its event loop, outside the request's task: on
    /// `request.eventLoop` they read the defaults; on this loop, the request's values.
    ///
    /// ```swift
    /// app.get("token") { request -> EventLoopFuture<String> in
    ///     request.ambientEventLoop.submit { Clock.current.now }
    ///         .map { "\($0)" }  // the request's clock here too
    /// }
    /// ```
    ///
    /// Where ``AmbientMiddleware`` did not run, it binds the values current where it is read.
    public var ambientEventLoop: any EventLoop {
        storage[RequestValuesKey.self] ?? BoundEventLoop(eventLoop, context: .current)
    }
}
#endif
