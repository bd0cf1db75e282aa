// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders

#if SwiftCrypto
import Foundation

// Why: senders sign propagated values with a shared key, using swift-crypto's HMAC, never hand-written crypto.

extension PropagationSigner {
    /// A signer that signs with HMAC-SHA256 under `key`, each signature valid for `lifetime`.
    ///
    /// ```swift
    /// let signer = PropagationSigner.hmacSHA256(try PropagationSigningKey(id: "test", base64: secret))
    /// let headers = propagated.encode(.current, signingWith: signer)
    /// ```
    ///
    /// - Parameters:
    ///   - key: The key that signs; its id travels with each signature.
    ///   - lifetime: How long a receiver accepts the signature: the replay window. A minute
    ///     covers a request's way through a few services; the receiver caps it with its
    ///     `maximumLifetime`.
    ///   - now: The system's time. Never `Clock.current`: a propagated clock must not move an
    ///     expiry.
    public static func hmacSHA256(
        _ key: PropagationSigningKey, lifetime: Duration = .seconds(60),
        now: @escaping @Sendable () -> Date = { Date() }
    ) -> PropagationSigner {
        PropagationSigner(keyID: key.id, lifetime: lifetime, authenticator: HMACAuthenticator(key), now: now)
    }
}
#endif
