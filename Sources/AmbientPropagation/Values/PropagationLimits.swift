// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders

// Why: input from another process is hostile until verified: past these caps nothing is applied.

/// How much propagated text a receiver reads before it stops: past a limit it applies nothing
/// from that field (or, for `baggage`, from the whole header) and reports a
/// ``PropagationRejection``. The defaults are W3C Baggage's own limits.
///
/// ```swift
/// var limits = PropagationLimits.default
/// limits.maximumFieldBytes = 256  // this service's values are short
/// let (context, rejections) = propagated.decodeSkippingInvalid(headers, trusting: trust, limits: limits)
/// ```
public struct PropagationLimits: Sendable, Hashable {
    /// The longest field (one `ambient-*` header, one baggage entry's value, or the
    /// signature), as it arrived, escaped: 4,096 bytes.
    public var maximumFieldBytes: Int
    /// The longest `baggage` header: 8,192 bytes, as W3C Baggage bounds it.
    public var maximumBaggageBytes: Int
    /// The most entries in a `baggage` header: 180, as W3C Baggage bounds it.
    public var maximumBaggageEntries: Int

    /// Limits as given.
    public init(maximumFieldBytes: Int = 4096, maximumBaggageBytes: Int = 8192, maximumBaggageEntries: Int = 180) {
        precondition(
            maximumFieldBytes > 0 && maximumBaggageBytes > 0 && maximumBaggageEntries > 0,
            "PropagationLimits: every limit must be positive")
        self.maximumFieldBytes = maximumFieldBytes
        self.maximumBaggageBytes = maximumBaggageBytes
        self.maximumBaggageEntries = maximumBaggageEntries
    }

    /// 4,096 bytes a field; a `baggage` header of 8,192 bytes and 180 entries.
    public static let `default` = PropagationLimits()
}
