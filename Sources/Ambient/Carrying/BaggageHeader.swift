/// A W3C `baggage` header, read within ``CarrierLimits``: its entries' keys and raw values
/// (properties after `;` are read past and ignored). Only what a receiver needs: Ambient
/// never rewrites another service's entries.
struct BaggageHeader {
    /// Each entry's key and its value as it arrived (still escaped).
    var entries: [(key: Substring, value: Substring)]

    /// The entries of `header`, or the one rejection that drops the whole header: too long,
    /// too many entries, or not a baggage list.
    static func parse(_ header: String, limits: CarrierLimits) -> Result<BaggageHeader, CarrierRejection> {
        let name = CarriedValues.baggageHeader
        let utf8 = header.utf8
        guard utf8.count <= limits.maximumBaggageBytes else {
            return .failure(
                CarrierRejection(
                    field: name, reason: .tooLarge(bytes: utf8.count, limit: limits.maximumBaggageBytes),
                    arrived: header))
        }
        var entries: [(key: Substring, value: Substring)] = []
        var memberCount = 0
        for member in header[...].split(separator: ",", omittingEmptySubsequences: false) {
            let member = trimmed(member)
            if member.isEmpty { continue }  // "a=1,,b=2": forwarded as is by many propagators
            memberCount += 1
            guard memberCount <= limits.maximumBaggageEntries else {
                let count = header.utf8.split(separator: UInt8(ascii: ",")).count
                return .failure(
                    CarrierRejection(
                        field: name, reason: .tooManyEntries(count: count, limit: limits.maximumBaggageEntries),
                        arrived: header))
            }
            guard let equals = member.firstIndex(of: "=") else {
                return .failure(
                    CarrierRejection(field: name, reason: .malformedBaggage("an entry without '='"), arrived: header))
            }
            let key = trimmed(member[..<equals])
            guard !key.isEmpty, key.utf8.allSatisfy(isTokenByte) else {
                return .failure(
                    CarrierRejection(
                        field: name, reason: .malformedBaggage("an entry's key is not an HTTP token"), arrived: header))
            }
            let rest = member[member.index(after: equals)...]
            let value = trimmed(rest.firstIndex(of: ";").map { rest[..<$0] } ?? rest)
            entries.append((key, value))
        }
        return .success(BaggageHeader(entries: entries))
    }

    private static func trimmed(_ text: Substring) -> Substring {
        let isWhite = { (character: Character) in character == " " || character == "\t" }
        guard let first = text.firstIndex(where: { !isWhite($0) }) else { return text[text.endIndex...] }
        let last = text.lastIndex(where: { !isWhite($0) })!
        return text[first...last]
    }

    /// RFC 9110's `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
