/// A carried value that could not be decoded: which field, what it held, and why.
///
/// ``CarriedValues/decode(_:)`` throws it; ``CarriedValues/decodeSkippingInvalid(_:)``
/// returns it beside the values that did decode.
public struct CarriedValueDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The field (header) name: `ambient-clock`.
    public var key: String
    /// The field's text as it arrived (still escaped).
    public var encoded: String
    /// The type it should have decoded to: `Clock`.
    public var typeName: String
    /// What went wrong: the type's own error, or the escaping that was invalid.
    public var reason: String

    /// An error for the field `key` holding `encoded`, meant for `typeName`.
    public init(key: String, encoded: String, typeName: String, reason: String) {
        self.key = key
        self.encoded = encoded
        self.typeName = typeName
        self.reason = reason
    }

    /// `ambient-clock: "noon" does not decode as Clock: expected fixed:<seconds since 2001>`.
    public var description: String {
        "\(key): \"\(encoded)\" does not decode as \(typeName): \(reason)"
    }
}
