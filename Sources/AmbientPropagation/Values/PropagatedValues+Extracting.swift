// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders

// Why: a server integration reads both carrier formats with one call, and drops and reports what it does not trust.

extension PropagatedValues {
    /// The values a request carried that `trust` accepts, from its `ambient-*` fields and its
    /// W3C `baggage` header alike; every field that is forged, unsigned, tampered, expired,
    /// wrongly keyed or past `limits` is dropped and given to `onInvalid`.
    ///
    /// What the server integrations (AmbientHummingbird, AmbientVapor) and
    /// `AmbientInstrument` call for each request. A request that carries none costs the
    /// lookups of its fields and allocates nothing.
    ///
    /// ```swift
    /// let propagated = PropagatedValues(Clock.self, TenantFlags.self)
    /// let reporter = RejectionReporter(report: RejectionReporter.logWarning)
    /// let values = propagated.extract(trusting: .nobody, onInvalid: reporter) { headers[$0] }
    /// ```
    ///
    /// Where both formats carry the same type, the field wins over the baggage entry.
    ///
    /// - Parameters:
    ///   - trust: Whose values to accept; `.nobody` accepts none (every propagated field is
    ///     reported as `untrusted`).
    ///   - limits: The caps on what is read.
    ///   - onInvalid: Where each dropped field is reported (rate-limited).
    ///   - field: The request's field of a name (`nil` when it has none).
    public func extract(
        trusting trust: PropagationTrust, limits: PropagationLimits = .default, onInvalid: RejectionReporter,
        field: (String) -> String?
    ) -> InjectionContext {
        let fields = decodeSkippingInvalid(as: .fields, trusting: trust, limits: limits, field: field)
        let baggage = decodeSkippingInvalid(as: .baggage, trusting: trust, limits: limits, field: field)
        fields.rejections.forEach(onInvalid.callAsFunction)
        baggage.rejections.forEach(onInvalid.callAsFunction)
        if baggage.context.isEmpty { return fields.context }
        if fields.context.isEmpty { return baggage.context }
        return baggage.context.injecting(contentsOf: fields.context)
    }
}

extension RejectionReporter {
    /// Reports a dropped propagated value as a warning through `Logger.current`, with the
    /// field, the reason, an excerpt of what arrived and how many reports the rate limit
    /// held back before it: the integrations' default `report`.
    ///
    /// ```swift
    /// let onInvalid = RejectionReporter(maximumReports: 5, report: RejectionReporter.logWarning)
    /// ```
    public static let logWarning: @Sendable (PropagationRejection) -> Void = { rejection in
        Logger.current.warning(
            "dropped a propagated value",
            metadata: [
                "key": rejection.field, "reason": "\(rejection.reason)", "arrived": rejection.excerpt,
                "suppressed": "\(rejection.suppressedBefore)",
            ])
    }
}
