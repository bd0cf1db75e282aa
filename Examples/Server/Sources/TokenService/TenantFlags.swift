// SPDX-License-Identifier: Apache-2.0

import Ambient

/// A tenant's feature flags. Looked up per request from the `x-tenant` header, and
/// propagatable, so a test can fix them for a server it calls (the `ambient-tenant-flags`
/// header).
public struct TenantFlags: PropagatableValue, Equatable, CustomStringConvertible {
    /// Tokens live a day instead of an hour.
    public var longLivedTokens: Bool

    /// Flags as given.
    public init(longLivedTokens: Bool) {
        self.longLivedTokens = longLivedTokens
    }

    /// Every flag off.
    public static var defaultValue: TenantFlags { TenantFlags(longLivedTokens: false) }

    /// The flags of `tenant` (the example's whole tenant directory).
    public static func of(tenant: String?) -> TenantFlags {
        TenantFlags(longLivedTokens: tenant == "enterprise")
    }

    /// `"tenant-flags"`.
    public static var propagationKey: String { "tenant-flags" }

    /// `long-lived` or `short-lived`.
    public var propagationEncoding: String? { longLivedTokens ? "long-lived" : "short-lived" }

    /// Decodes `long-lived` or `short-lived`.
    public init(propagationEncoding: String) throws {
        switch propagationEncoding {
        case "long-lived": longLivedTokens = true
        case "short-lived": longLivedTokens = false
        default: throw UnknownFlags(text: propagationEncoding)
        }
    }

    /// `long-lived` or `short-lived`.
    public var description: String { propagationEncoding ?? "" }

    struct UnknownFlags: Error, CustomStringConvertible {
        let text: String
        var description: String { "expected long-lived or short-lived" }
    }
}
