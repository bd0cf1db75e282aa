// SPDX-License-Identifier: Apache-2.0

import Foundation

// Why: names, key ids and baggage keys are matched as bytes on every signed request; one comparison serves them all.

extension UnsafeBufferPointer where Element == UInt8 {
    /// Whether these bytes are `other`'s: the same length, then one `memcmp`.
    func hasSameBytes(as other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == other.count else { return false }
        guard let first = baseAddress, let second = other.baseAddress else { return true }  // both empty
        return memcmp(first, second, count) == 0
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
