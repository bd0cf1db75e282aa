// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
#if SwiftCrypto
import Crypto
import Foundation

// Why: swift-crypto's HMAC takes any DataProtocol through unspecialised generic code; a message of concrete types spares it the metadata lookups a buffer pointer's generic regions cost.

/// The bytes an HMAC covers, in one region, as a `DataProtocol` whose region collection and
/// iterator are concrete types: `HMAC.update(data:)` walks `regions` through unspecialised
/// generic code, which for an `UnsafeRawBufferPointer` (regions a `CollectionOfOne`)
/// looks up generic metadata on every call. Valid only while `bytes` is.
struct HMACMessage: DataProtocol, ContiguousBytes {
    let bytes: UnsafeRawBufferPointer

    var startIndex: Int { 0 }
    var endIndex: Int { bytes.count }
    subscript(position: Int) -> UInt8 { bytes[position] }

    var regions: Regions { Regions(message: self) }

    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(bytes)
    }

    /// The message's one region.
    struct Regions: BidirectionalCollection {
        let message: HMACMessage
        var startIndex: Int { 0 }
        var endIndex: Int { 1 }
        subscript(position: Int) -> HMACMessage { message }
        func index(after index: Int) -> Int { index + 1 }
        func index(before index: Int) -> Int { index - 1 }
        func makeIterator() -> Iterator { Iterator(remaining: message) }

        /// Gives the region once.
        struct Iterator: IteratorProtocol {
            var remaining: HMACMessage?
            mutating func next() -> HMACMessage? {
                defer { remaining = nil }
                return remaining
            }
        }
    }
}
#endif
