// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders

// Why: only types that opt in travel between processes, each as one string field.

/// An ambient value that can travel as a string: in a request's headers to a server the
/// test calls, or to a child process. List the types that travel in a ``PropagatedValues``.
///
/// ```swift
/// struct FeatureFlags: PropagatableValue {
///     var newCheckout: Bool
///     static var defaultValue: FeatureFlags { FeatureFlags(newCheckout: false) }
///
///     static var propagationKey: String { "feature-flags" }
///     var propagationEncoding: String? { newCheckout ? "new-checkout" : "" }
///     init(newCheckout: Bool) { self.newCheckout = newCheckout }
///     init(propagationEncoding: String) throws {
///         guard ["new-checkout", ""].contains(propagationEncoding) else {
///             throw FlagsError.unknown(propagationEncoding)
///         }
///         newCheckout = propagationEncoding == "new-checkout"
///     }
/// }
/// ```
///
/// Only injected values travel: a type nothing injected keeps its default on the other
/// side. The encoding may be any string: ``PropagatedValues`` escapes it for a header. A
/// receiver applies it only from a sender it trusts (``PropagationTrust``): carry what tests
/// need to fix, never what decides authorization.
public protocol PropagatableValue: AmbientValue {
    /// The name this type travels under, unique among the types of one ``PropagatedValues``:
    /// letters, digits and `-` only (`"clock"` becomes the header `ambient-clock`).
    static var propagationKey: String { get }

    /// This value as a string, or `nil` to leave it behind (``Clock/live`` does: the other
    /// side has a live clock of its own).
    var propagationEncoding: String? { get }

    /// The value `propagationEncoding` describes. Throw, with a message that says what was
    /// expected, on anything else: ``PropagatedValues`` reports it as a ``PropagationRejection``
    /// (``PropagationRejection/Reason/undecodable(typeName:message:)``) naming the type.
    /// Only text from a sender the receiver trusts gets here, but decode it as strictly
    /// as any input.
    init(propagationEncoding: String) throws
}

extension PropagatableValue {
    /// Stores the value `encoded` describes (`Self` opened from an `any PropagatableValue.Type`).
    static func store(decoding encoded: String, into builder: inout ContextBuilder) throws {
        builder.store(try Self(propagationEncoding: encoded))
    }

    /// The encoding of the value `context` injects for this type, if any.
    static func encoding(in context: InjectionContext) -> String? {
        context[Self.self]?.propagationEncoding
    }
}
