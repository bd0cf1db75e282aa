// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders

#if SwiftCrypto
import Foundation

// Why: a receiver applies propagated values only when a key it holds signed them, unexpired.

extension PropagationTrust {
    /// Accepts the fields a valid HMAC-SHA256 signature covers, made with one of `keys` and
    /// not expired; drops and reports everything else — unsigned, forged, altered, expired,
    /// or signed with a key not in `keys`.
    ///
    /// ```swift
    /// // Rotation: accept the new key and the old one until every sender has moved on.
    /// let trust = PropagationTrust.signed(by: [key2026_11, key2026_10])
    /// ```
    ///
    /// - Parameters:
    ///   - keys: The keys accepted, told apart by their ids (each id once).
    ///   - maximumLifetime: The longest a signature may still have to run when it arrives:
    ///     a sender cannot open a longer replay window than this.
    ///   - leeway: How far the sender's and the receiver's clocks may disagree.
    ///   - now: The system's time; `nil`, the default, reads the system's wall clock the
    ///     cheapest way it offers (on Linux the kernel's coarse clock, current to its last
    ///     tick, a few milliseconds: an expiry is in whole seconds, checked with `leeway`).
    ///     Never `Clock.current`: a propagated clock must not move an expiry.
    /// - Precondition: `keys` is not empty and no two share an id.
    public static func signed(
        by keys: [PropagationSigningKey], maximumLifetime: Duration = .seconds(300), leeway: Duration = .seconds(5),
        now: (@Sendable () -> Date)? = nil
    ) -> PropagationTrust {
        precondition(!keys.isEmpty, "PropagationTrust.signed(by:): no keys given; use .nobody to accept nothing")
        precondition(
            Set(keys.map(\.id)).count == keys.count, "PropagationTrust.signed(by:): two keys share an id: \(keys)")
        precondition(maximumLifetime > .zero && leeway >= .zero, "PropagationTrust.signed(by:): negative durations")
        return PropagationTrust(
            signedWith: Verifier(
                keys: keys.map { (Array($0.id.utf8), HMACAuthenticator($0)) },
                maximumLifetimeSeconds: maximumLifetime.timeInterval, leewaySeconds: leeway.timeInterval, now: now))
    }
}
#endif
