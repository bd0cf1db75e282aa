#if SwiftCrypto
import Crypto

/// HMAC-SHA256 from apple/swift-crypto: the only cryptography carried values use. The key's
/// padded blocks are hashed once, here, and each message starts from a copy of that state;
/// the check is swift-crypto's constant-time comparison (`==` between a MAC and bytes).
struct HMACAuthenticator: CarrierAuthenticator {
    let keyed: HMAC<SHA256>

    init(_ key: CarrierSigningKey) {
        self.keyed = HMAC<SHA256>(key: SymmetricKey(data: key.secret))
    }

    func code(for message: [UInt8]) -> [UInt8] {
        var authenticator = keyed
        authenticator.update(data: message)
        return Array(authenticator.finalize())
    }

    func isValid(_ code: [UInt8], for message: [UInt8]) -> Bool {
        var authenticator = keyed
        authenticator.update(data: message)
        return authenticator.finalize() == code
    }
}
#endif
