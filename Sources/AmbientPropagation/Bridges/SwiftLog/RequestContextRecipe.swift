// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders

#if SwiftLog
import Logging

// Why: every server integration layers a request's values the same way; this is that one way, for Hummingbird's, Vapor's and your own.

/// How a server middleware makes each request's context: the layers AmbientHummingbird's
/// and AmbientVapor's `AmbientMiddleware` apply, for a middleware of your own (another
/// framework, a gRPC interceptor).
///
/// Each layer goes over the one before:
///
/// 1. the `captured` values, under those current where the request runs;
/// 2. Ambient's logger bridged to the request's swift-log logger
///    (``Logger/bridging(to:)``: a logger a test injected keeps its entries);
/// 3. the request's own values;
/// 4. on top, the `propagated` values the request brought that `trust` accepts; every other
///    propagated field is dropped and reported to `onInvalid`.
///
/// ```swift
/// let recipe = RequestContextRecipe(propagating: PropagatedValues(Clock.self), trusting: .nobody)
/// let context = try recipe.context(
///     logger: requestLogger, fields: { headers[$0] },
///     values: { InjectionContext().injecting(RequestTag(id: requestID)) })
/// try await context.run { try await handle(request) }
/// ```
public struct RequestContextRecipe: Sendable {
    /// The values every request starts with, or `nil`.
    public var captured: InjectionContext?
    /// The types a request may carry, or `nil` to read none.
    public var propagated: PropagatedValues?
    /// Whose propagated values to accept.
    public var trust: PropagationTrust
    /// The most propagated text read per request.
    public var limits: PropagationLimits
    /// Where a dropped propagated value is reported (rate-limited).
    public var onInvalid: RejectionReporter
    /// Whether Ambient's logger is bridged to the request's.
    public var bridgesRequestLogger: Bool

    /// The recipe.
    ///
    /// - Parameters:
    ///   - captured: Values every request starts with; `.current` captures the ones current
    ///     where the recipe is made (capture at configure).
    ///   - propagated: The types a request may bring in `ambient-*` fields or W3C `baggage`.
    ///   - trust: Whose propagated values to accept: by default nobody's
    ///     (`PropagationTrust.signed(by:)` with the SwiftCrypto trait accepts signed ones).
    ///   - limits: The most propagated text read per request.
    ///   - onInvalid: Reports each dropped propagated value: by default ten warnings a minute
    ///     on the request's logger.
    ///   - bridgingRequestLogger: Bridge Ambient's logger to the request's.
    public init(
        capturing captured: InjectionContext? = nil,
        propagating propagated: PropagatedValues? = nil,
        trusting trust: PropagationTrust = .nobody,
        limits: PropagationLimits = .default,
        onInvalid: RejectionReporter = RejectionReporter(report: RejectionReporter.logWarning),
        bridgingRequestLogger: Bool = true
    ) {
        self.captured = captured
        self.propagated = propagated
        self.trust = trust
        self.limits = limits
        self.onInvalid = onInvalid
        self.bridgesRequestLogger = bridgingRequestLogger
    }

    /// The context a request runs in: the layers above, over the values current here.
    ///
    /// - Parameters:
    ///   - logger: The request's swift-log logger.
    ///   - fields: Every value of a request field (header) of a name: a field sent twice
    ///     reads as one comma-separated list (RFC 9110, 5.3), so a signed value with a
    ///     second one added no longer verifies.
    ///   - values: The request's own values. It runs with the layers before it current:
    ///     `Logger.current` is the request's bridged logger, to add metadata to.
    /// - Throws: What `values` throws.
    public func context(
        logger: Logging.Logger, fields: (String) -> [String], values: () throws -> InjectionContext
    ) throws -> InjectionContext {
        var context = captured.map { $0.injecting(contentsOf: .current) } ?? .current
        if bridgesRequestLogger {
            context = context.injecting(Logger.bridging(to: logger, over: context[Logger.self]))
        }
        let own = try context.run { try values() }
        if !own.isEmpty {
            context = context.injecting(contentsOf: own)
        }
        if let propagated {
            // Inside the context so far: a rejection is reported on the request's logger.
            let extracted = context.run {
                propagated.extract(trusting: trust, limits: limits, onInvalid: onInvalid) { name in
                    let values = fields(name)
                    return values.count < 2 ? values.first : values.joined(separator: ",")
                }
            }
            if !extracted.isEmpty {
                context = context.injecting(contentsOf: extracted)
            }
        }
        return context
    }
}
#endif
