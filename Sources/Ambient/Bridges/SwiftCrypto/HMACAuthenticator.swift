#if SwiftCrypto
import Crypto

/// HMAC-SHA256 from apple/swift-crypto: the only cryptography carried values use. The
/// check is swift-crypto's own constant-time comparison.
struct HMACAuthenticator: CarrierAuthenticator {
    let key: SymmetricKey

    init(_ key: CarrierSigningKey) {
        self.key = SymmetricKey(data: key.secret)
    }

    func code(for message: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: message, using: key))
    }

    func isValid(_ code: [UInt8], for message: [UInt8]) -> Bool {
        HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: message, using: key)
    }
}
#endif
