// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation

// Why: names, key ids and baggage keys are matched as bytes on every signed request; one comparison serves them all.

extension UnsafeBufferPointer where Element == UInt8 {
    /// Whether these bytes are `other`'s: the same length, then the bytes. Not in constant
    /// time: for names and ids, never for a secret or a code.
    ///
    /// Names are short: up to 32 bytes are compared as words in line (a call to `memcmp`
    /// costs a short name more than its bytes do), longer ones by `memcmp`.
    @inline(__always)
    func hasSameBytes(as other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == other.count else { return false }
        guard let first = baseAddress, let second = other.baseAddress else { return true }  // both empty
        let a = UnsafeRawPointer(first)
        let b = UnsafeRawPointer(second)
        func word(_ offset: Int) -> UInt64 {
            a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                ^ b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        }
        switch count {
        case 8...16:  // two words, overlapping where fewer than 16
            return word(0) | word(count &- 8) == 0
        case 17...32:
            return word(0) | word(8) | word(count &- 16) | word(count &- 8) == 0
        case 4..<8:
            func half(_ offset: Int) -> UInt32 {
                a.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                    ^ b.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            }
            return half(0) | half(count &- 4) == 0
        default:
            return memcmp(first, second, count) == 0
        }
    }

    /// Whether these bytes are `other`'s.
    func hasSameBytes(as other: [UInt8]) -> Bool {
        other.withUnsafeBufferPointer { hasSameBytes(as: $0) }
    }
}

extension Range where Bound == Int {
    /// This range `distance` later: a part's offsets within a slice, as offsets in the buffer
    /// the slice starts `distance` into.
    func offset(by distance: Int) -> Range<Int> {
        (lowerBound + distance)..<(upperBound + distance)
    }
}
