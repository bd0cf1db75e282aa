// SPDX-License-Identifier: Apache-2.0

// Why: W3C baggage lets carried values cross services in any language; this reads it within limits.

/// A W3C `baggage` header, read within ``CarrierLimits`` where a decode copied it: its
/// entries' keys and raw values (still escaped; properties after `;` are read past and
/// ignored). Only what a receiver needs: Ambient never rewrites another service's entries.
/// One pass over the header's bytes, nothing copied.
enum BaggageHeader {
    /// Calls `entry` with where each entry's key and value are, in order; returns the reason
    /// the whole header is refused (too many entries, or not a baggage list), if it is, and
    /// then the entries already seen must be forgotten.
    static func forEachEntry(
        _ header: Range<Int>, in scratch: borrowing CarrierScratch, limits: CarrierLimits,
        _ entry: (_ key: Range<Int>, _ value: Range<Int>) -> Void
    ) -> CarrierRejection.Reason? {
        var entries = 0
        var memberStart = header.lowerBound
        for index in header.lowerBound...header.upperBound
        where index == header.upperBound || scratch[index] == UInt8(ascii: ",") {
            let member = trimmed(memberStart..<index, in: scratch)
            memberStart = index + 1
            if member.isEmpty { continue }  // "a=1,,b=2": forwarded as is by many propagators
            guard entries < limits.maximumBaggageEntries else {
                let members = header.reduce(1) { scratch[$1] == UInt8(ascii: ",") ? $0 + 1 : $0 }
                return .tooManyEntries(count: members, limit: limits.maximumBaggageEntries)
            }
            guard let equals = member.first(where: { scratch[$0] == UInt8(ascii: "=") }) else {
                return .malformedBaggage("an entry without '='")
            }
            let key = trimmed(member.lowerBound..<equals, in: scratch)
            guard !key.isEmpty, key.allSatisfy({ isTokenByte(scratch[$0]) }) else {
                return .malformedBaggage("an entry's key is not an HTTP token")
            }
            let rest = (equals + 1)..<member.upperBound
            let valueEnd = rest.first { scratch[$0] == UInt8(ascii: ";") } ?? rest.upperBound
            entries += 1
            entry(key, trimmed(rest.lowerBound..<valueEnd, in: scratch))
        }
        return nil
    }

    /// Where the value of the one entry named as the bytes at `name` is, or `nil` when there
    /// is none or several (the header already read whole by ``forEachEntry``).
    static func value(
        of name: Range<Int>, in header: Range<Int>, of scratch: borrowing CarrierScratch, limits: CarrierLimits
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

    /// `range` without the spaces and tabs at either end.
    private static func trimmed(_ range: Range<Int>, in scratch: borrowing CarrierScratch) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, scratch[lower] == UInt8(ascii: " ") || scratch[lower] == UInt8(ascii: "\t") { lower += 1 }
        while upper > lower, scratch[upper - 1] == UInt8(ascii: " ") || scratch[upper - 1] == UInt8(ascii: "\t") {
            upper -= 1
        }
        return lower..<upper
    }

    /// RFC 9110's `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"),
            UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"),
            UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
