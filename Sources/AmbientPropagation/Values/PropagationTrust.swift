// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation

// Why: by default nothing from an incoming request changes an ambient value; this says who may.

/// Which senders a receiver takes propagated values from. Anything that arrives from another
/// process is a stranger's input until this says otherwise: with ``nobody``, the default of
/// every receiving API that has one, a request's fields change nothing.
///
/// ```swift
/// // A server: only values signed with a key it holds (rotation: list the old and the new).
/// let trust = PropagationTrust.signed(by: [currentKey, previousKey])  // the SwiftCrypto trait
///
/// // A hop the server has authenticated by its own means.
/// let internalHop = PropagationTrust.senders { field in field("x-internal-hop") == "mesh" }
///
/// // A pipe to a child process this process started: nobody else can write to it.
/// let context = try propagated.decode(fieldsFromParent, trusting: .anySender)
/// ```
///
/// Trust decides only whether propagated values are *applied*. What they may change is yours
/// to choose when you list the types in ``PropagatedValues``: carry what tests need to fix
/// (a clock, feature flags), never what decides authorization.
public struct PropagationTrust: Sendable {
    /// Whom it trusts. The predicate and the verifier are stored beside it, not as the
    /// cases' payloads: a request reads them where they are, with no copy of an enum (a
    /// retain and a release each).
    enum Kind: Sendable {
        case nobody
        case senders
        case signed
    }

    /// What a signed trust checks a signature with: a class, so a request takes one
    /// reference to it, not a copy of each part.
    final class Verifier: Sendable {
        /// Each key's id as bytes, to match a signature's without making a string, and its
        /// authenticator at the same index.
        let keyIDs: [[UInt8]]
        let authenticators: [any PropagationAuthenticator]
        /// The longest a signature may still have to run, and the clock skew allowed, in
        /// seconds (converted once, not per request).
        let maximumLifetimeSeconds: Double
        let leewaySeconds: Double
        /// The receiver's own clock, or `nil` for ``WallClock``.
        let now: (@Sendable () -> Date)?

        init(
            keys: [(id: [UInt8], authenticator: any PropagationAuthenticator)], maximumLifetimeSeconds: Double,
            leewaySeconds: Double, now: (@Sendable () -> Date)?
        ) {
            self.keyIDs = keys.map(\.id)
            self.authenticators = keys.map(\.authenticator)
            self.maximumLifetimeSeconds = maximumLifetimeSeconds
            self.leewaySeconds = leewaySeconds
            self.now = now
        }

        /// Seconds since 1970, by the receiver's clock.
        func secondsSince1970() -> Double {
            now?().timeIntervalSince1970 ?? WallClock.secondsSince1970()
        }

        func authenticator(for id: UnsafeBufferPointer<UInt8>) -> (any PropagationAuthenticator)? {
            keyIDs.firstIndex { id.hasSameBytes(as: $0) }.map { authenticators[$0] }
        }
    }

    let kind: Kind
    /// `senders`' predicate.
    let isTrusted: (@Sendable (_ field: (String) -> String?) -> Bool)?
    /// `signed`'s verifier.
    let verifier: Verifier?

    private init(
        _ kind: Kind, isTrusted: (@Sendable (_ field: (String) -> String?) -> Bool)? = nil, verifier: Verifier? = nil
    ) {
        self.kind = kind
        self.isTrusted = isTrusted
        self.verifier = verifier
    }

    /// A trust that accepts what `verifier` verifies.
    init(signedWith verifier: Verifier) {
        self.init(.signed, verifier: verifier)
    }

    /// Accepts nothing: every propagated field is dropped and reported as
    /// ``PropagationRejection/Reason/untrusted``. The default wherever a trust is optional.
    public static let nobody = PropagationTrust(.nobody)

    /// Accepts every sender's fields, unsigned. Only for a channel no stranger can write to:
    /// a pipe to your own child process, a test calling a function directly.
    public static let anySender = PropagationTrust(.senders, isTrusted: { _ in true })

    /// Accepts a request's fields, unsigned, when `isTrusted` says so; reports them as
    /// ``PropagationRejection/Reason/untrusted`` otherwise. `isTrusted` gets a lookup of the
    /// request's fields by (lowercased) name: trust a hop your server has already
    /// authenticated, by a header its gateway sets and strips from outside requests.
    ///
    /// ```swift
    /// let trust = PropagationTrust.senders { field in field("x-authenticated-service") != nil }
    /// ```
    public static func senders(
        where isTrusted: @escaping @Sendable (_ field: (String) -> String?) -> Bool
    ) -> PropagationTrust {
        PropagationTrust(.senders, isTrusted: isTrusted)
    }
}
