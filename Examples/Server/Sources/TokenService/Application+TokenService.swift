// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientHummingbird
import Foundation
import HTTPTypes
import Hummingbird

/// The token service: `POST /tokens` issues a token for the `x-tenant` header's tenant,
/// `GET /tokens/{id}` checks one, `GET /ambient` reports what the handler sees (for the
/// tests' inheritance table).
///
/// Its one line of Ambient set-up is AmbientHummingbird's `AmbientMiddleware`: each request
/// runs with its ``TenantFlags`` (of the `x-tenant` header), a ``RequestTag``, Ambient's
/// logger bridged to the request's, and on top the clock and flags a trusted caller signed.
///
/// - Parameters:
///   - port: Where to listen (0 for any free port).
///   - capturingContext: Capture the values current here for every request, for a server
///     whose tasks do not inherit this scope.
///   - trust: Whose propagated clock and flags to accept: nobody's by default.
///   - onInvalid: Where a dropped propagated value is reported.
public func buildApplication(
    port: Int = 8080, capturingContext: Bool = false, trust: PropagationTrust = .nobody,
    onInvalid: RejectionReporter = RejectionReporter(report: RejectionReporter.logWarning)
) -> some ApplicationProtocol {
    let router = Router()
    // doc-block: hummingbird-middleware
    router.add(
        middleware: AmbientMiddleware(
            capturing: capturingContext ? .current : nil, propagating: .tokenService, trusting: trust,
            onInvalid: onInvalid
        ) { request, context in
            let tag = RequestTag(id: request.headers[.requestID] ?? context.id)
            return InjectionContext().injecting(
                TenantFlags.of(tenant: request.headers[.tenant]), tag,
                Logger.current.with(metadata: ["request": tag.id]))
        })
    // doc-block-end
    let store = TokenStore()

    router.post("tokens") { request, _ -> Token in
        let token = Token.issue()
        await store.insert(token)
        Logger.current.info("issued token", metadata: ["token": token.id, "expires": "\(token.expiresAt)"])
        return token
    }
    router.get("tokens/{id}") { _, context -> TokenCheck in
        let id = try context.parameters.require("id")
        guard let token = await store.token(id: id) else { throw HTTPError(.notFound) }
        let valid = Clock.current.now < token.expiresAt
        Logger.current.debug("checked token", metadata: ["token": id, "valid": "\(valid)"])
        return TokenCheck(id: id, valid: valid)
    }
    router.get("ambient") { _, _ -> String in
        "clock=\(Clock.current.now.timeIntervalSinceReferenceDate) flags=\(TenantFlags.current) request=\(RequestTag.current)"
    }
    return Application(
        router: router,
        configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "token-service")
    )
}

/// An issued token.
public struct Token: ResponseCodable, Equatable, Sendable {
    /// Its ID, from `UUIDGenerator.current`.
    public var id: String
    /// When it was issued, by `Clock.current`.
    public var issuedAt: Date
    /// An hour later, or a day for tenants with ``TenantFlags/longLivedTokens``.
    public var expiresAt: Date
    /// The request that issued it.
    public var request: String

    /// A token with these fields (the service issues them; tests build expected ones).
    public init(id: String, issuedAt: Date, expiresAt: Date, request: String) {
        self.id = id
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.request = request
    }

    /// A token issued now, by the ambient clock, IDs, flags and request.
    static func issue() -> Token {
        let now = Clock.current.now
        let lifetime: TimeInterval = TenantFlags.current.longLivedTokens ? 86_400 : 3_600
        return Token(
            id: UUIDGenerator.current().uuidString, issuedAt: now, expiresAt: now + lifetime,
            request: RequestTag.current.id)
    }
}

/// Whether a token is still valid.
public struct TokenCheck: ResponseCodable, Equatable, Sendable {
    /// The token's ID.
    public var id: String
    /// Whether `Clock.current` is before its expiry.
    public var valid: Bool
}

/// Issued tokens, in memory.
actor TokenStore {
    private var tokens: [String: Token] = [:]

    func insert(_ token: Token) {
        tokens[token.id] = token
    }

    func token(id: String) -> Token? {
        tokens[id]
    }
}

extension HTTPField.Name {
    /// `x-request-id`.
    public static let requestID = Self("x-request-id")!
    /// `x-tenant`.
    public static let tenant = Self("x-tenant")!
}
