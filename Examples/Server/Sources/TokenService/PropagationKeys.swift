// SPDX-License-Identifier: Apache-2.0

import Ambient

/// The keys a deployment signs and accepts propagated values with, from one line of
/// configuration: `id:base64,id:base64` — the first signs, all are accepted (list the new
/// key first and keep the old one until every sender has moved on).
///
/// ```swift
/// let keys = try propagationKeys(from: ProcessInfo.processInfo.environment["AMBIENT_CARRIER_KEYS"])
/// ```
///
/// - Returns: No keys for `nil` or an empty line: the service then trusts nobody's values.
/// - Throws: ``PropagationKeysError`` naming the entry that is wrong, never its secret.
public func propagationKeys(from configuration: String?) throws -> [PropagationSigningKey] {
    guard let configuration, !configuration.isEmpty else { return [] }
    return try configuration.split(separator: ",").enumerated().map { index, entry in
        let parts = entry.split(separator: ":", maxSplits: 1)
        guard parts.count == 2 else { throw PropagationKeysError(entry: index + 1, reason: "expected id:base64") }
        do {
            return try PropagationSigningKey(id: String(parts[0]), base64: String(parts[1]))
        } catch {
            throw PropagationKeysError(entry: index + 1, reason: "\(error)")
        }
    }
}

/// A carrier-keys line that is wrong: which entry (counting from 1) and why.
public struct PropagationKeysError: Error, CustomStringConvertible {
    /// The entry, counting from 1.
    public var entry: Int
    /// Why.
    public var reason: String
    /// `carrier key 2: carrier key secret is not base64`.
    public var description: String { "carrier key \(entry): \(reason)" }
}
