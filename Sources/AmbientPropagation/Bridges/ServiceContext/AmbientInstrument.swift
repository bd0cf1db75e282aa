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
///         carrying: CarriedValues(Clock.self, FeatureFlags.self),
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
/// try await withInjected(carriedBy: context) { try await handle(request) }
/// ```
///
/// `inject` sends the values current where it is called, over those the service context
/// carries (`ServiceContext.injectionContext`): a scope around the call wins, and a
/// service context handed to code outside every scope still brings its values. `extract`
/// cannot throw: a field from a sender ``trust`` does not accept, or that does not decode,
/// is dropped (the receiver keeps its own value for that type) and handed to ``onInvalid``,
/// a ``RejectionReporter`` that reports at most a few a minute — by default as warnings on
/// Ambient's `Logger.current`. For a typed error instead, decode with
/// ``CarriedValues/decode(_:as:trusting:limits:)``.
public struct AmbientInstrument: Instrument, CustomStringConvertible {
    /// The types that travel.
    public let carried: CarriedValues
    /// Where `inject` puts them: `ambient-*` fields, or entries of the W3C `baggage` header.
    /// `extract` reads both.
    public let format: CarrierFormat
    /// What signs the values `inject` sends; `nil` sends them unsigned.
    public let signer: CarrierSigner?
    /// Whose values `extract` applies: by default ``CarrierTrust/nobody``'s.
    public let trust: CarrierTrust
    /// How much carried text `extract` reads.
    public let limits: CarrierLimits
    /// Gets each field `extract` dropped, at most a few a minute.
    public let onInvalid: RejectionReporter

    /// An instrument carrying `carried`.
    ///
    /// - Parameters:
    ///   - carried: The types that travel.
    ///   - format: Where `inject` writes: `ambient-*` fields (the default) or the W3C
    ///     `baggage` header (which a hop without Ambient forwards). `extract` reads both.
    ///   - signer: Signs what `inject` sends, for receivers that trust only signed values.
    ///   - trust: The senders whose values `extract` applies; by default none.
    ///   - limits: The most carried text `extract` reads.
    ///   - onInvalid: Reports what `extract` dropped: by default ten warnings a minute on
    ///     Ambient's `Logger.current` (``logWarning``).
    public init(
        carrying carried: CarriedValues,
        as format: CarrierFormat = .fields,
        signingWith signer: CarrierSigner? = nil,
        trusting trust: CarrierTrust = .nobody,
        limits: CarrierLimits = .default,
        onInvalid: RejectionReporter = RejectionReporter(report: AmbientInstrument.logWarning)
    ) {
        self.carried = carried
        self.format = format
        self.signer = signer
        self.trust = trust
        self.limits = limits
        self.onInvalid = onInvalid
    }

    /// Writes into `carrier` the fields for the listed types that are injected: the values
    /// current here, over those `context` carries.
    public func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
    ) where Inject.Carrier == Carrier {
        let values = context.injectionContext.map { $0.injecting(contentsOf: .current) } ?? .current
        carried.encode(values, as: format, signingWith: signer) { key, value in
            injector.inject(value, forKey: key, into: &carrier)
        }
    }

    /// Reads the listed types from `carrier` into `context`'s injection context (on top of
    /// one it already carries), from a sender ``trust`` accepts: the `ambient-*` fields and
    /// the `baggage` entries, whichever ``format`` this side sends, each verified on its
    /// own; where both carry a type, the field wins. What is dropped goes to ``onInvalid``.
    public func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
    ) where Extract.Carrier == Carrier {
        let extracted = carried.extract(trusting: trust, limits: limits, onInvalid: onInvalid) {
            extractor.extract(key: $0, from: carrier)
        }
        guard !extracted.isEmpty else { return }
        // Layer only over a context already carried: rebuilding onto an empty one would copy
        // every extracted value into a second storage for nothing.
        context.injectionContext = context.injectionContext.map { $0.injecting(contentsOf: extracted) } ?? extracted
    }

    /// The default report: a warning on Ambient's `Logger.current`, with the field, the
    /// reason and what arrived (its start, safe for a log line) in its metadata.
    public static let logWarning: @Sendable (CarrierRejection) -> Void = RejectionReporter.logWarning

    /// `AmbientInstrument(CarriedValues(…))`.
    public var description: String {
        "AmbientInstrument(\(carried), \(format), signer: \(signer.map { "\($0)" } ?? "none"))"
    }
}

extension CarriedValues {
    /// A context injecting every listed type `extractor` finds in `carrier`, from a sender
    /// `trust` accepts.
    ///
    /// - Throws: The first ``CarrierRejection``; nothing is applied then.
    public func decode<Carrier, Extract: Extractor>(
        _ carrier: Carrier, using extractor: Extract, as format: CarrierFormat = .fields,
        trusting trust: CarrierTrust, limits: CarrierLimits = .default
    ) throws(CarrierRejection) -> InjectionContext where Extract.Carrier == Carrier {
        try decode(as: format, trusting: trust, limits: limits) { extractor.extract(key: $0, from: carrier) }
    }
}
#endif
