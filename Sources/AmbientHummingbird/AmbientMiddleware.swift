// SPDX-License-Identifier: Apache-2.0

#if Hummingbird
import Ambient
import HTTPTypes
import Hummingbird

// Why: a Hummingbird app gets each request's values — captured, its own, signed propagated ones, its logger — by one line.

/// The per-request middleware for Hummingbird 2: every handler and everything it calls reads
/// the request's values.
///
/// ```swift
/// router.add(
///     middleware: AmbientMiddleware(propagating: PropagatedValues(Clock.self), trusting: .signed(by: keys)) { request, _ in
///         InjectionContext().injecting(TenantFlags.of(tenant: request.headers[.tenant]))
///     })
/// ```
///
/// For each request it makes one context, each layer over the one before:
///
/// 1. the values captured when the middleware was made (`capturing:` — for a server whose
///    requests do not run inside the scope that built it: a server shared by tests, or run
///    by a `ServiceGroup` started elsewhere), under the values current where the request
///    runs (HummingbirdTesting's `.router` mode runs it in the test's task);
/// 2. Ambient's logger bridged to the request's swift-log logger (`context.logger`, with
///    Hummingbird's request ID), without hiding a logger a test injected
///    (`Logger.bridging(to:)`);
/// 3. the request's own values, from `values`;
/// 4. on top, the `propagated` values the request brought in `ambient-*` fields or W3C
///    `baggage` that `trust` accepts — by default none: a client's forged header changes
///    nothing, and is reported to `onInvalid`.
public struct AmbientMiddleware<Context: RequestContext>: RouterMiddleware {
    /// How each request's context is made (the layers above).
    public let recipe: RequestContextRecipe
    private let values: @Sendable (Request, Context) throws -> InjectionContext

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
    ///   - bridgingRequestLogger: Bridge Ambient's logger to `context.logger`.
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
        values: @escaping @Sendable (Request, Context) throws -> InjectionContext = { _, _ in InjectionContext() }
    ) {
        self.recipe = RequestContextRecipe(
            capturing: captured, propagating: propagated, trusting: trust, limits: limits, onInvalid: onInvalid,
            bridgingRequestLogger: bridgingRequestLogger)
        self.values = values
    }

    /// The context a request runs in: the layers above, over the values current here.
    public func context(for request: Request, context requestContext: Context) throws -> InjectionContext {
        let headers = request.headers
        return try recipe.context(
            logger: requestContext.logger,
            fields: { name in HTTPField.Name(name).map { headers[values: $0] } ?? [] },
            values: { try values(request, requestContext) })
    }

    /// Runs `next` inside the request's context.
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        try await self.context(for: request, context: context).run { try await next(request, context) }
    }
}
#endif
