// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation

// Why: keys rotate: each has an id a signature names, so a receiver can accept several.

/// A shared secret that signs propagated values, and the id that names it in a signature, so a
/// receiver can accept several while keys rotate.
///
/// ```swift
/// // Both sides read it from their secret store; the id travels, the secret never does.
/// let key = try PropagationSigningKey(id: "2026-11", base64: environment["AMBIENT_CARRIER_KEY"] ?? "")
/// ```
///
/// At least 32 bytes of secret (HMAC-SHA256's own size): generate them with a
/// cryptographically secure generator (`openssl rand -base64 32`). Its `description`
/// shows the id and the length, never the secret.
public struct PropagationSigningKey: Sendable, CustomStringConvertible {
    /// Why a key was refused.
    public enum Invalid: Error, Sendable, Hashable, CustomStringConvertible {
        /// The id is empty, longer than 64 characters, or holds a character other than ASCII
        /// letters, digits, `-` and `_`.
        case invalidID(String)
        /// The secret has `bytes` bytes; at least `minimum` are needed.
        case secretTooShort(bytes: Int, minimum: Int)
        /// The text given as the secret is not base64.
        case notBase64

        /// What was wrong, naming the id but never the secret.
        public var description: String {
            switch self {
            case .invalidID(let id):
                "carrier key id \"\(id)\" is not 1 to 64 ASCII letters, digits, - or _"
            case .secretTooShort(let bytes, let minimum):
                "carrier key secret has \(bytes) bytes; at least \(minimum) are needed"
            case .notBase64: "carrier key secret is not base64"
            }
        }
    }

    /// The fewest secret bytes a key may have: 32.
    public static let minimumSecretBytes = 32

    /// The name signatures carry, so the receiver knows which secret to check with.
    public let id: String
    /// The secret.
    let secret: [UInt8]

    /// A key named `id` with the secret `secret`.
    ///
    /// - Throws: ``Invalid`` when the id is not 1 to 64 letters, digits, `-` or `_`, or the
    ///   secret is shorter than ``minimumSecretBytes``.
    public init(id: String, secret: some Sequence<UInt8>) throws(Invalid) {
        guard (1...64).contains(id.utf8.count), id.utf8.allSatisfy(PropagationSignature.isKeyIDByte) else {
            throw .invalidID(id)
        }
        let secret = Array(secret)
        guard secret.count >= Self.minimumSecretBytes else {
            throw .secretTooShort(bytes: secret.count, minimum: Self.minimumSecretBytes)
        }
        self.id = id
        self.secret = secret
    }

    /// A key named `id` whose secret is the base64 text `base64` (as `openssl rand -base64 32`
    /// prints it; surrounding white space is ignored).
    ///
    /// - Throws: ``Invalid``, as ``init(id:secret:)``, or ``Invalid/notBase64``.
    public init(id: String, base64: String) throws(Invalid) {
        let trimmed = base64.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let bytes = Data(base64Encoded: trimmed) else { throw .notBase64 }
        try self.init(id: id, secret: bytes)
    }

    /// `PropagationSigningKey(id: 2026-11, 32 bytes)`: never the secret.
    public var description: String {
        "PropagationSigningKey(id: \(id), \(secret.count) bytes)"
    }
}
