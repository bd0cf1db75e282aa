#if ServiceContext
import Instrumentation
import ServiceContextModule

/// A swift-distributed-tracing `Instrument` that carries ambient values in a request's
/// headers: `inject` writes the listed types' values, `extract` reads them back into the
/// service context's `ServiceContext.injectionContext`.
///
/// ```swift
/// // Both sides, at startup (or in a MultiplexInstrument beside a tracer):
/// InstrumentationSystem.bootstrap(AmbientInstrument(carrying: CarriedValues(Clock.self, FeatureFlags.self)))
///
/// // The test, calling the server: its injected clock travels with the request.
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
/// service context handed to code outside every scope still brings its values. `extract` cannot throw: a field that does
/// not decode is skipped (the receiver keeps its own value for that type) and reported to
/// ``onInvalid`` — by default as a warning on Ambient's `Logger.current`. For a typed
/// error instead, decode with ``CarriedValues/decode(_:)``.
public struct AmbientInstrument: Instrument, CustomStringConvertible {
    /// The types that travel.
    public let carried: CarriedValues
    /// Called with each field that did not decode.
    public let onInvalid: @Sendable (CarriedValueDecodingError) -> Void

    /// An instrument carrying `carried`.
    public init(
        carrying carried: CarriedValues,
        onInvalid: @escaping @Sendable (CarriedValueDecodingError) -> Void = AmbientInstrument.logWarning
    ) {
        self.carried = carried
        self.onInvalid = onInvalid
    }

    /// Writes into `carrier` one field per listed type that is injected: the values current
    /// here, over those `context` carries.
    public func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
    ) where Inject.Carrier == Carrier {
        let values = context.injectionContext.map { $0.injecting(contentsOf: .current) } ?? .current
        carried.encode(values) { key, value in
            injector.inject(value, forKey: key, into: &carrier)
        }
    }

    /// Reads the listed types from `carrier` into `context`'s injection context (on top of
    /// one it already carries). Fields that do not decode are skipped and reported.
    public func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
    ) where Extract.Carrier == Carrier {
        let (extracted, errors) = carried.decodeSkippingInvalid { extractor.extract(key: $0, from: carrier) }
        errors.forEach(onInvalid)
        guard !extracted.isEmpty else { return }
        // Layer only over a context already carried: rebuilding onto an empty one would copy
        // every extracted value into a second storage for nothing.
        context.injectionContext = context.injectionContext.map { $0.injecting(contentsOf: extracted) } ?? extracted
    }

    /// The default ``onInvalid``: a warning on Ambient's `Logger.current`, with the field
    /// and the reason in its metadata.
    public static let logWarning: @Sendable (CarriedValueDecodingError) -> Void = { error in
        Logger.current.warning(
            "ignored a carried value that does not decode",
            metadata: ["key": error.key, "type": error.typeName, "reason": error.reason])
    }

    /// `AmbientInstrument(CarriedValues(…))`.
    public var description: String {
        "AmbientInstrument(\(carried))"
    }
}

extension CarriedValues {
    /// A context injecting every listed type `extractor` finds in `carrier`.
    ///
    /// - Throws: The first field that does not decode.
    public func decode<Carrier, Extract: Extractor>(
        _ carrier: Carrier, using extractor: Extract
    ) throws(CarriedValueDecodingError) -> InjectionContext where Extract.Carrier == Carrier {
        try decode { extractor.extract(key: $0, from: carrier) }
    }
}
#endif
