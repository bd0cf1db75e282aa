// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation

// Why: W3C baggage lets propagated values cross services in any language; this reads it within limits.

/// A W3C `baggage` header, read within ``PropagationLimits`` where a decode copied it: its
/// entries' keys and raw values (still escaped; properties after `;` are read past and
/// ignored). Only what a receiver needs: Ambient never rewrites another service's entries.
/// One pass over the header's bytes, nothing copied.
enum BaggageHeader {
    /// Calls `entry` with where each entry's key and value are, in order; returns the reason
    /// the whole header is refused (too many entries, or not a baggage list), if it is, and
    /// then the entries already seen must be forgotten.
    static func forEachEntry(
        _ header: Range<Int>, in scratch: borrowing PropagationScratch, limits: PropagationLimits,
        _ entry: (_ key: Range<Int>, _ value: Range<Int>) -> Void
    ) -> PropagationRejection.Reason? {
        // `memchr` finds each separator (the header is read on every request that carries
        // baggage); the ranges handed to `entry` are moved back to the scratch's offsets.
        scratch.withBytes(header) { bytes in
            let token = ByteClass.token
            var entries = 0
            var memberStart = 0
            while memberStart <= bytes.count {
                let memberEnd = find(UInt8(ascii: ","), in: memberStart..<bytes.count, of: bytes) ?? bytes.count
                defer { memberStart = memberEnd + 1 }
                // The key is read as it is checked: its token bytes, then spaces and '='.
                var index = memberStart
                while index < memberEnd, isSpace(bytes[index]) { index &+= 1 }
                if index == memberEnd { continue }  // "a=1,,b=2": forwarded as is by many propagators
                guard entries < limits.maximumBaggageEntries else {
                    let members = bytes.reduce(1) { $1 == UInt8(ascii: ",") ? $0 + 1 : $0 }
                    return .tooManyEntries(count: members, limit: limits.maximumBaggageEntries)
                }
                let keyStart = index
                while index < memberEnd, token.contains(bytes[index]) { index &+= 1 }
                let key = keyStart..<index
                while index < memberEnd, isSpace(bytes[index]) { index &+= 1 }
                guard index < memberEnd, bytes[index] == UInt8(ascii: "="), !key.isEmpty else {
                    if find(UInt8(ascii: "="), in: keyStart..<memberEnd, of: bytes) == nil {
                        return .malformedBaggage("an entry without '='")
                    }
                    return .malformedBaggage("an entry's key is not an HTTP token")
                }
                let rest = (index + 1)..<memberEnd
                let valueEnd = find(UInt8(ascii: ";"), in: rest, of: bytes) ?? rest.upperBound
                entries &+= 1
                entry(
                    key.offset(by: header.lowerBound),
                    trimmed(rest.lowerBound..<valueEnd, in: bytes).offset(by: header.lowerBound))
            }
            return nil
        }
    }

    /// Where the first `byte` in `range` of `bytes` is, if anywhere.
    private static func find(_ byte: UInt8, in range: Range<Int>, of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !range.isEmpty, let base = bytes.baseAddress,
            let found = memchr(base + range.lowerBound, Int32(byte), range.count)
        else { return nil }
        return UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
    }

    /// Where the value of the one entry named as the bytes at `name` is, or `nil` when there
    /// is none or several (the header already read whole by ``forEachEntry``).
    static func value(
        of name: Range<Int>, in header: Range<Int>, of scratch: borrowing PropagationScratch, limits: PropagationLimits
    ) -> Range<Int>? {
        var found: Range<Int>?
        var several = false
        _ = forEachEntry(header, in: scratch, limits: limits) { key, value in
            guard scratch.equal(key, name) else { return }
            several = several || found != nil
            found = value
        }
        return several ? nil : found
    }

    /// Whether `byte` is optional whitespace: a space or a tab.
    private static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    /// `range` of `bytes` without the spaces and tabs at either end.
    private static func trimmed(_ range: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, isSpace(bytes[lower]) { lower &+= 1 }
        while upper > lower, isSpace(bytes[upper &- 1]) { upper &-= 1 }
        return lower..<upper
    }
}
