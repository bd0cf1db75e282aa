// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders

#if SwiftCrypto
import Crypto

// Why: one keyed HMAC state per key, copied per message: the only cryptography on the verification path.

/// HMAC-SHA256 from apple/swift-crypto: the only cryptography propagated values use. The key's
/// padded blocks are hashed once, here, and each message starts from a copy of that state;
/// the check compares every byte, as swift-crypto's own constant-time comparison does. A
/// class: a request takes one reference to it, not a copy of the keyed state's parts.
final class HMACAuthenticator: PropagationAuthenticator {
    let keyed: HMAC<SHA256>

    init(_ key: PropagationSigningKey) {
        self.keyed = HMAC<SHA256>(key: SymmetricKey(data: key.secret))
    }

    func code(for message: UnsafeRawBufferPointer) -> [UInt8] {
        var authenticator = keyed
        authenticator.update(data: HMACMessage(bytes: message))
        return Array(authenticator.finalize())
    }

    func isValid(_ code: UnsafeRawBufferPointer, for message: UnsafeRawBufferPointer) -> Bool {
        var authenticator = keyed
        authenticator.update(data: HMACMessage(bytes: message))
        return authenticator.finalize().withUnsafeBytes { computed in
            // Constant time, as swift-crypto's own comparison: every byte is read, the
            // differences are OR-ed, and there is no early exit.
            guard computed.count == code.count else { return false }
            var difference: UInt8 = 0
            for index in 0..<computed.count {
                difference |= computed[index] ^ code[index]
            }
            return difference == 0
        }
    }
}
#endif
