// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders

#if ServiceContext
import Instrumentation
import ServiceContextModule

// Why: ambient values cross a service hop in headers or baggage, through the tracing instrument a server installs.

/// A swift-distributed-tracing `Instrument` that carries ambient values in a request's
/// headers: `inject` writes the listed types' values (signed, when given a signer),
/// `extract` reads back those from a sender it trusts into the service context's
/// `ServiceContext.injectionContext`.
///
/// ```swift
/// // Both sides, at startup (or in a MultiplexInstrument beside a tracer). By default a
/// // receiver trusts nobody: give it the keys whose signatures it accepts (SwiftCrypto trait).
/// InstrumentationSystem.bootstrap(
///     AmbientInstrument(
///         propagating: PropagatedValues(Clock.self, FeatureFlags.self),
///         signingWith: .hmacSHA256(testKey), trusting: .signed(by: [testKey])))
///
/// // The test, calling the server: its injected clock travels with the request, signed.
/// try await withInjected(Clock.fixed(noon)) {
///     var headers: [String: String] = [:]
///     InstrumentationSystem.instrument.inject(
///         ServiceContext.current ?? .topLevel, into: &headers, using: DictionaryInjector())
///     …
/// }
///
/// // The server: extract into the request's service context, then handle inside it.
/// var context = ServiceContext.topLevel
/// InstrumentationSystem.instrument.extract(headers, into: &context, using: DictionaryExtractor())
/// try await withInjected(propagatedBy: context) { try await handle(request) }
/// ```
///
/// `inject` sends the values current where it is called, over those the service context
/// carries (`ServiceContext.injectionContext`): a scope around the call wins, and a
/// service context handed to code outside every scope still brings its values. `extract`
/// cannot throw: a field from a sender ``trust`` does not accept, or that does not decode,
/// is dropped (the receiver keeps its own value for that type) and handed to ``onInvalid``,
/// a ``RejectionReporter`` that reports at most a few a minute — by default as warnings on
/// Ambient's `Logger.current`. For a typed error instead, decode with
/// ``PropagatedValues/decode(_:as:trusting:limits:)``.
public struct AmbientInstrument: Instrument, CustomStringConvertible {
    /// The types that travel.
    public let propagated: PropagatedValues
    /// Where `inject` puts them: `ambient-*` fields, or entries of the W3C `baggage` header.
    /// `extract` reads both.
    public let format: PropagationFormat
    /// What signs the values `inject` sends; `nil` sends them unsigned.
    public let signer: PropagationSigner?
    /// Whose values `extract` applies: by default ``PropagationTrust/nobody``'s.
    public let trust: PropagationTrust
    /// How much propagated text `extract` reads.
    public let limits: PropagationLimits
    /// Gets each field `extract` dropped, at most a few a minute.
    public let onInvalid: RejectionReporter

    /// An instrument propagating `propagated`.
    ///
    /// - Parameters:
    ///   - propagated: The types that travel.
    ///   - format: Where `inject` writes: `ambient-*` fields (the default) or the W3C
    ///     `baggage` header (which a hop without Ambient forwards). `extract` reads both.
    ///   - signer: Signs what `inject` sends, for receivers that trust only signed values.
    ///   - trust: The senders whose values `extract` applies; by default none.
    ///   - limits: The most propagated text `extract` reads.
    ///   - onInvalid: Reports what `extract` dropped: by default ten warnings a minute on
    ///     Ambient's `Logger.current` (``logWarning``).
    public init(
        propagating propagated: PropagatedValues,
        as format: PropagationFormat = .fields,
        signingWith signer: PropagationSigner? = nil,
        trusting trust: PropagationTrust = .nobody,
        limits: PropagationLimits = .default,
        onInvalid: RejectionReporter = RejectionReporter(report: AmbientInstrument.logWarning)
    ) {
        self.propagated = propagated
        self.format = format
        self.signer = signer
        self.trust = trust
        self.limits = limits
        self.onInvalid = onInvalid
    }

    /// Writes into `transport` the fields for the listed types that are injected: the values
    /// current here, over those `context` carries.
    public func inject<Transport, Inject: Injector>(
        _ context: ServiceContext, into transport: inout Transport, using injector: Inject
    ) where Inject.Carrier == Transport {
        let values = context.injectionContext.map { $0.injecting(contentsOf: .current) } ?? .current
        propagated.encode(values, as: format, signingWith: signer) { key, value in
            injector.inject(value, forKey: key, into: &transport)
        }
    }

    /// Reads the listed types from `transport` into `context`'s injection context (on top of
    /// one it already carries), from a sender ``trust`` accepts: the `ambient-*` fields and
    /// the `baggage` entries, whichever ``format`` this side sends, each verified on its
    /// own; where both carry a type, the field wins. What is dropped goes to ``onInvalid``.
    public func extract<Transport, Extract: Extractor>(
        _ transport: Transport, into context: inout ServiceContext, using extractor: Extract
    ) where Extract.Carrier == Transport {
        let extracted = propagated.extract(trusting: trust, limits: limits, onInvalid: onInvalid) {
            extractor.extract(key: $0, from: transport)
        }
        guard !extracted.isEmpty else { return }
        // Layer only over a context already carried: rebuilding onto an empty one would copy
        // every extracted value into a second storage for nothing.
        context.injectionContext = context.injectionContext.map { $0.injecting(contentsOf: extracted) } ?? extracted
    }

    /// The default report: a warning on Ambient's `Logger.current`, with the field, the
    /// reason and what arrived (its start, safe for a log line) in its metadata.
    public static let logWarning: @Sendable (PropagationRejection) -> Void = RejectionReporter.logWarning

    /// `AmbientInstrument(PropagatedValues(…))`.
    public var description: String {
        "AmbientInstrument(\(propagated), \(format), signer: \(signer.map { "\($0)" } ?? "none"))"
    }
}

extension PropagatedValues {
    /// A context injecting every listed type `extractor` finds in `transport`, from a sender
    /// `trust` accepts.
    ///
    /// - Throws: The first ``PropagationRejection``; nothing is applied then.
    public func decode<Transport, Extract: Extractor>(
        _ transport: Transport, using extractor: Extract, as format: PropagationFormat = .fields,
        trusting trust: PropagationTrust, limits: PropagationLimits = .default
    ) throws(PropagationRejection) -> InjectionContext where Extract.Carrier == Transport {
        try decode(as: format, trusting: trust, limits: limits) { extractor.extract(key: $0, from: transport) }
    }
}
#endif
