// SPDX-License-Identifier: Apache-2.0

import Ambient

// Why: the service's own ambient value, set per request from a header and carried signed between services.

/// The tenant a request acts for: from its `x-tenant` header, or carried (signed) from a
/// service that called this one.
public struct Tenant: PropagatableValue, Equatable, CustomStringConvertible {
    /// The tenant's name.
    public var name: String

    /// The tenant named `name`.
    public init(_ name: String) {
        self.name = name
    }

    /// No tenant: `anonymous`.
    public static var defaultValue: Tenant { Tenant("anonymous") }

    /// `tenant`: the field is `ambient-tenant`.
    public static var propagationKey: String { "tenant" }

    /// The name.
    public var propagationEncoding: String? { name }

    /// A name of 1 to 64 letters, digits or `-`.
    public init(propagationEncoding: String) throws {
        guard (1...64).contains(propagationEncoding.utf8.count),
            propagationEncoding.utf8.allSatisfy({
                $0 == UInt8(ascii: "-") || ($0 < 128 && Character(Unicode.Scalar($0)).isLetter)
                    || (48...57).contains($0)
            })
        else { throw InvalidName() }
        name = propagationEncoding
    }

    /// Whether its tokens live a day instead of an hour.
    public var hasLongLivedTokens: Bool { name == "enterprise" }

    /// The name.
    public var description: String { name }

    struct InvalidName: Error, CustomStringConvertible {
        var description: String { "expected 1 to 64 letters, digits or -" }
    }
}

extension PropagatedValues {
    /// What the token service accepts from a trusted caller: its clock and tenant.
    public static let vaporTokenService = PropagatedValues(Clock.self, Tenant.self)
}
