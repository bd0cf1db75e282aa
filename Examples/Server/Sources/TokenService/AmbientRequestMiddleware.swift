// SPDX-License-Identifier: Apache-2.0

import Ambient
import HTTPTypes
import Hummingbird
import ServiceContextModule

/// The per-request middleware: makes the request's own values current for everything
/// its handler calls.
///
/// - ``TenantFlags`` of the `x-tenant` header, and a ``RequestTag``;
/// - Ambient's logger bridged to the request's swift-log logger (`context.logger`, which
///   carries Hummingbird's request ID) — without hiding a logger a test injected
///   around the server (`Logger.bridging(to:)`);
/// - on top, the values the request brought in its headers or baggage, once Hummingbird's
///   `TracingMiddleware` has extracted them with an `AmbientInstrument`
///   (`withInjected(carriedBy:)`) — only those signed with a key the instrument trusts: a
///   test's signed fixed clock or flags win over the tenant's, a client's forged ones
///   change nothing.
///
/// Requests run concurrently; each sees only its own values.
public struct AmbientRequestMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The middleware.
    public init() {}

    /// Runs `next` with the request's values injected.
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let tag = RequestTag(id: request.headers[.requestID] ?? context.id)
        let flags = TenantFlags.of(tenant: request.headers[.tenant])
        let logger = Logger.bridging(to: context.logger).with(metadata: ["request": tag.id])
        return try await withInjected(flags, tag, logger) {
            try await withInjected(carriedBy: ServiceContext.current) {
                try await next(request, context)
            }
        }
    }
}

extension HTTPField.Name {
    /// `x-request-id`.
    public static let requestID = Self("x-request-id")!
    /// `x-tenant`.
    public static let tenant = Self("x-tenant")!
}
