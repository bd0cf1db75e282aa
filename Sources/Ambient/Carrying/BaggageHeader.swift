/// A W3C `baggage` header, read within ``CarrierLimits``: its entries' keys and raw values
/// (properties after `;` are read past and ignored). Only what a receiver needs: Ambient
/// never rewrites another service's entries. One pass over the header's bytes.
struct BaggageHeader {
    /// The header's bytes.
    let bytes: [UInt8]
    /// Each entry's key and its value as it arrived (still escaped), as ranges of ``bytes``.
    var entries: [(key: Range<Int>, value: Range<Int>)]

    /// The value of the one entry named `name`, or `nil` when there is none or several.
    func value(of name: [UInt8]) -> ArraySlice<UInt8>? {
        var found: Range<Int>?
        for entry in entries where bytes[entry.key].elementsEqual(name) {
            guard found == nil else { return nil }
            found = entry.value
        }
        return found.map { bytes[$0] }
    }

    /// The entries of `header`, or the one rejection that drops the whole header: too long,
    /// too many entries, or not a baggage list.
    static func parse(_ header: String, limits: CarrierLimits) -> Result<BaggageHeader, CarrierRejection> {
        let name = CarriedValues.baggageHeader
        let count = header.utf8.count
        guard count <= limits.maximumBaggageBytes else {
            return .failure(
                CarrierRejection(
                    field: name, reason: .tooLarge(bytes: count, limit: limits.maximumBaggageBytes),
                    bytes: header.utf8))
        }
        let bytes = Array(header.utf8)
        func reject(_ reason: CarrierRejection.Reason) -> Result<BaggageHeader, CarrierRejection> {
            .failure(CarrierRejection(field: name, reason: reason, bytes: bytes))
        }
        var entries: [(key: Range<Int>, value: Range<Int>)] = []
        var memberStart = 0
        for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: ",") {
            let member = trimmed(memberStart..<index, in: bytes)
            memberStart = index + 1
            if member.isEmpty { continue }  // "a=1,,b=2": forwarded as is by many propagators
            guard entries.count < limits.maximumBaggageEntries else {
                let members = bytes.reduce(1) { $1 == UInt8(ascii: ",") ? $0 + 1 : $0 }
                return reject(.tooManyEntries(count: members, limit: limits.maximumBaggageEntries))
            }
            guard let equals = bytes[member].firstIndex(of: UInt8(ascii: "=")) else {
                return reject(.malformedBaggage("an entry without '='"))
            }
            let key = trimmed(member.lowerBound..<equals, in: bytes)
            guard !key.isEmpty, bytes[key].allSatisfy(isTokenByte) else {
                return reject(.malformedBaggage("an entry's key is not an HTTP token"))
            }
            let rest = (equals + 1)..<member.upperBound
            let valueEnd = bytes[rest].firstIndex(of: UInt8(ascii: ";")) ?? rest.upperBound
            entries.append((key, trimmed(rest.lowerBound..<valueEnd, in: bytes)))
        }
        return .success(BaggageHeader(bytes: bytes, entries: entries))
    }

    /// `range` without the spaces and tabs at either end.
    private static func trimmed(_ range: Range<Int>, in bytes: [UInt8]) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, bytes[lower] == UInt8(ascii: " ") || bytes[lower] == UInt8(ascii: "\t") { lower += 1 }
        while upper > lower, bytes[upper - 1] == UInt8(ascii: " ") || bytes[upper - 1] == UInt8(ascii: "\t") {
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
