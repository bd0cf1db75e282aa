// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation

// Why: the sender's side of signed carrying, independent of the crypto library that computes the code.

/// Signs the values a sender carries, so a receiver that trusts the key
/// (``PropagationTrust/signed(by:maximumLifetime:leeway:now:)``) applies them.
///
/// Made with the `SwiftCrypto` trait on, by ``hmacSHA256(_:lifetime:now:)``:
///
/// ```swift
/// let signer = PropagationSigner.hmacSHA256(testKey)
/// let headers = withInjected(Clock.fixed(noon)) { propagated.encode(.current, signingWith: signer) }
/// // ["ambient-clock": "fixed:43200.0", "ambient-signature": "v1:test:1764043260:ambient-clock:…"]
/// ```
///
/// The signature covers the fields it lists and expires after ``lifetime``: anyone who sees
/// the request can replay it to the same receivers until then, so keep it short, and never
/// carry what decides authorization.
public struct PropagationSigner: Sendable, CustomStringConvertible {
    /// The id of the key that signs.
    public let keyID: String
    /// How long a signature stays valid after it is made.
    public let lifetime: Duration
    let authenticator: any PropagationAuthenticator
    let now: @Sendable () -> Date

    init(
        keyID: String, lifetime: Duration, authenticator: any PropagationAuthenticator,
        now: @escaping @Sendable () -> Date
    ) {
        precondition(lifetime > .zero, "PropagationSigner: the lifetime must be positive, not \(lifetime)")
        self.keyID = keyID
        self.lifetime = lifetime
        self.authenticator = authenticator
        self.now = now
    }

    /// The signature field's text for `fields` (names and decoded values, in order).
    func signature(for fields: [(name: String, value: String)]) -> String {
        let expiry = Int64((now().timeIntervalSince1970 + lifetime.timeInterval).rounded(.up))
        let code = PropagationScratch.withScratch { scratch in
            let message = PropagationSignature.message(keyID: keyID, expiry: expiry, fields: fields, in: &scratch)
            return scratch.withBytes(message) { authenticator.code(for: UnsafeRawBufferPointer($0)) }
        }
        return PropagationSignature.text(keyID: keyID, expiry: expiry, names: fields.map(\.name), code: code)
    }

    /// `PropagationSigner(key: test, lifetime: 60 seconds)`.
    public var description: String {
        "PropagationSigner(key: \(keyID), lifetime: \(lifetime))"
    }
}
