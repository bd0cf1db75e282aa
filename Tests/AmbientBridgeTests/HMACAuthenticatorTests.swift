// SPDX-License-Identifier: Apache-2.0

#if SwiftCrypto
import Crypto
import Foundation
import Testing

import Ambient
import AmbientCore
import AmbientProviders

// @testable: the HMAC check's message type and its authenticator are AmbientPropagation's own,
// behind the SwiftCrypto trait; their codes are checked here against swift-crypto's.
@testable import AmbientPropagation

/// Ambient hands swift-crypto its message as a `DataProtocol` of its own (`HMACMessage`,
/// cheaper for swift-crypto's generic code than a buffer pointer): the codes must be
/// swift-crypto's own, byte for byte, at every length around SHA-256's 64-byte blocks.
@Suite("HMACAuthenticator: swift-crypto's HMAC-SHA256, byte for byte")
struct HMACAuthenticatorTests {
    @Test func everyCodeIsSwiftCryptosOwn() throws {
        var random = SystemRandomNumberGenerator()
        let secret = (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }
        let authenticator = HMACAuthenticator(try PropagationSigningKey(id: "k", secret: secret))
        for length in 0...300 {
            let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
            let expected = Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: secret)))
            message.withUnsafeBytes { bytes in
                #expect(authenticator.code(for: bytes) == expected, "length \(length)")
                expected.withUnsafeBytes { code in #expect(authenticator.isValid(code, for: bytes)) }
                var altered = expected
                altered[length % 32] ^= 1
                altered.withUnsafeBytes { code in #expect(!authenticator.isValid(code, for: bytes)) }
                #expect(!authenticator.isValid(UnsafeRawBufferPointer(rebasing: bytes.prefix(0)), for: bytes))
            }
        }
    }

    @Test func theMessageIsOneRegionOfItsBytes() {
        let bytes: [UInt8] = [1, 2, 3, 4, 5]
        bytes.withUnsafeBytes { raw in
            let message = HMACMessage(bytes: raw)
            #expect(Array(message) == bytes)
            #expect(message.regions.count == 1)
            #expect(
                Array(message.regions.first ?? HMACMessage(bytes: UnsafeRawBufferPointer(start: nil, count: 0)))
                    == bytes)
            var iterator = message.regions.makeIterator()
            #expect(iterator.next() != nil)
            #expect(iterator.next() == nil)
            #expect(message.withUnsafeBytes { Array($0) } == bytes)
        }
    }
}
#endif
