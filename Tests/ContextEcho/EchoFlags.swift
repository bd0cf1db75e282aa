// SPDX-License-Identifier: Apache-2.0

import Ambient

/// The feature flags the cross-process test sends to `ContextEcho`.
public struct EchoFlags: PropagatableValue, Equatable, CustomStringConvertible {
    /// Enabled flag names, sorted.
    public var enabled: [String]

    /// Flags with `enabled` on.
    public init(_ enabled: [String]) {
        self.enabled = enabled.sorted()
    }

    /// Nothing enabled.
    public static var defaultValue: EchoFlags { EchoFlags([]) }

    /// `"echo-flags"`.
    public static var propagationKey: String { "echo-flags" }

    /// The names joined with `,`.
    public var propagationEncoding: String? { enabled.joined(separator: ",") }

    /// Names separated by `,`: lowercase letters and `-`.
    public init(propagationEncoding: String) throws {
        let names = propagationEncoding.split(separator: ",", omittingEmptySubsequences: true).map(String.init)
        for name in names where !name.allSatisfy({ $0.isLowercase || $0 == "-" }) {
            throw FlagNameError(name: name)
        }
        self.init(names)
    }

    /// `flags[a,b]`.
    public var description: String { "flags[\(enabled.joined(separator: ","))]" }

    /// The types the test and the child agree to carry.
    public static let carried = PropagatedValues(Clock.self, EchoFlags.self)
}

struct FlagNameError: Error, CustomStringConvertible {
    let name: String
    var description: String { "flag name \"\(name)\" is not lowercase letters and -" }
}
