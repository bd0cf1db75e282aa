// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation

// Why: a dropped field says why (untrusted, forged, too large, malformed), so reports are actionable.

/// A propagated field the receiver dropped, and why: it came from a sender the receiver does not
/// trust, its signature did not verify, it was too large or malformed, or it did not decode.
///
/// Nothing a rejection names was applied. ``PropagatedValues/decodeSkippingInvalid(_:as:trusting:limits:)``
/// returns them beside the values it did apply; ``PropagatedValues/decode(_:as:trusting:limits:)``
/// throws the first; an `AmbientInstrument` hands them, rate-limited by a ``RejectionReporter``,
/// to its `onInvalid`.
///
/// ```swift
/// let (context, rejections) = propagated.decodeSkippingInvalid(headers, trusting: .signed(by: keys))
/// for rejection in rejections { log.warning("\(rejection)") }  // ambient-clock: not signed
/// ```
///
/// Its text is safe for a log line: ``excerpt`` holds at most 64 visible ASCII characters of
/// what arrived, and never a key.
public struct PropagationRejection: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why a field was dropped.
    public enum Reason: Error, Sendable, Hashable, CustomStringConvertible {
        /// The receiver trusts no sender (``PropagationTrust/nobody``), or its predicate said no.
        case untrusted
        /// The receiver accepts only signed fields and no valid signature covers this one.
        case unsigned
        /// The signature field is not `v1:<key id>:<expiry>:<fields>:<code>`.
        case malformedSignature(String)
        /// The signature names a key the receiver does not accept (retired, or never given).
        case unknownKey(id: String)
        /// The signature expired at this time (the receiver allows its `leeway` past it).
        case expired(at: Date)
        /// The signature expires further ahead than the receiver's `maximumLifetime` allows:
        /// a replay window the receiver refuses.
        case lifetimeTooLong(expiresAt: Date)
        /// The code does not match: a field was altered, added to the list or removed, or it
        /// was signed with another secret under the same key id.
        case signatureMismatch
        /// Over the receiver's ``PropagationLimits``: `bytes` arrived, `limit` are allowed.
        case tooLarge(bytes: Int, limit: Int)
        /// A `baggage` header with more entries than ``PropagationLimits/maximumBaggageEntries``.
        case tooManyEntries(count: Int, limit: Int)
        /// A `baggage` header that is not a W3C baggage list.
        case malformedBaggage(String)
        /// The field arrived twice (two baggage entries, or a repeated header joined by a
        /// comma): which one the sender meant is unknowable, so neither is applied.
        case duplicate
        /// A character a propagated field never holds, or a `%` not followed by two hex digits,
        /// or escapes that are not UTF-8.
        case invalidEscape
        /// The text did not decode as `typeName`: its `init(propagationEncoding:)` threw `message`.
        case undecodable(typeName: String, message: String)

        /// One line: `not signed`, `expired at 2026-11-25 04:00:00 +0000`, ….
        public var description: String {
            switch self {
            case .untrusted: "from a sender this receiver does not trust"
            case .unsigned: "not signed (this receiver accepts signed fields only)"
            case .malformedSignature(let why): "malformed signature: \(why)"
            case .unknownKey(let id): "signed with key \"\(id)\", which this receiver does not accept"
            case .expired(let date): "signature expired at \(date)"
            case .lifetimeTooLong(let date): "signature expires at \(date), further ahead than this receiver allows"
            case .signatureMismatch: "signature does not match (altered, forged, or signed with another secret)"
            case .tooLarge(let bytes, let limit): "\(bytes) bytes, over the limit of \(limit)"
            case .tooManyEntries(let count, let limit): "\(count) baggage entries, over the limit of \(limit)"
            case .malformedBaggage(let why): "malformed baggage: \(why)"
            case .duplicate: "arrived more than once"
            case .invalidEscape:
                "invalid text (a character outside the carried alphabet, a % not followed by two hex digits, or not UTF-8)"
            case .undecodable(let typeName, let message): "does not decode as \(typeName): \(message)"
            }
        }
    }

    /// The field (header or baggage entry) dropped: `ambient-clock`, `ambient-signature`, or
    /// `baggage` for the whole header.
    public var field: String
    /// Why.
    public var reason: Reason
    /// The start of what arrived (at most 64 characters, anything but visible ASCII shown as
    /// `?`): enough to recognise it in a log, never enough to flood one.
    public var excerpt: String
    /// How many rejections a ``RejectionReporter`` held back since the one it reported before
    /// this: 0 unless a flood of bad fields hit its limit.
    public var suppressedBefore: Int

    /// A rejection of `field`, which held `arrived`, for `reason`.
    public init(field: String, reason: Reason, arrived: String = "", suppressedBefore: Int = 0) {
        self.init(field: field, reason: reason, bytes: arrived.utf8, suppressedBefore: suppressedBefore)
    }

    init(field: String, reason: Reason, bytes arrived: some Collection<UInt8>, suppressedBefore: Int = 0) {
        self.field = field
        self.reason = reason
        self.excerpt = Self.excerpt(of: arrived)
        self.suppressedBefore = suppressedBefore
    }

    /// `ambient-clock ("fixed:0.0"): not signed (this receiver accepts signed fields only)`.
    public var description: String {
        var text = excerpt.isEmpty ? field : "\(field) (\"\(excerpt)\")"
        text += ": \(reason)"
        if suppressedBefore > 0 {
            text += " (\(suppressedBefore) earlier rejections not reported)"
        }
        return text
    }

    static func excerpt(of bytes: some Collection<UInt8>) -> String {
        var shown = [UInt8]()
        shown.reserveCapacity(67)
        var count = 0
        for byte in bytes {
            guard count < 64 else {
                shown += "...".utf8
                break
            }
            shown.append(byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") ? byte : UInt8(ascii: "?"))
            count += 1
        }
        return String(decoding: shown, as: UTF8.self)
    }
}
