/// How a carried value's text becomes a field that is valid as a header value and as a W3C
/// baggage value, and back.
///
/// Escaping leaves ASCII letters, digits and `-._~:@/+=` as they are and writes every other
/// byte of the UTF-8 as `%XX`. Unescaping is strict: it accepts literally only what a
/// baggage value may hold (visible ASCII but `"`, `,`, `;`, `\`), so a header repeated and
/// joined with a comma, a space or a control character is refused, never guessed at;
/// and it accepts any valid `%XX`, so a hop that escapes more than Ambient does is fine.
/// Both work on bytes, one pass each: what arrives is read once, at a bounded length.
enum CarrierEscaping {
    static func escape(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isPlain(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The text `field` escapes, or the reason it is not a field Ambient could have written
    /// (``CarrierRejection/Reason/duplicate`` for a comma: a repeated header, joined).
    static func unescape(_ field: ArraySlice<UInt8>) -> Result<String, CarrierRejection.Reason> {
        var escapes = false
        for byte in field {
            if byte == UInt8(ascii: "%") {
                escapes = true
            } else if !isBaggageOctet(byte) {
                return .failure(byte == UInt8(ascii: ",") ? .duplicate : .invalidEscape)
            }
        }
        // No escapes: visible ASCII only, valid UTF-8 as it is.
        guard escapes else { return .success(String(decoding: field, as: UTF8.self)) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(field.count)
        var index = field.startIndex
        while index < field.endIndex {
            let byte = field[index]
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                index += 1
                continue
            }
            guard index + 2 < field.endIndex, let high = hexValue(field[index + 1]),
                let low = hexValue(field[index + 2])
            else { return .failure(.invalidEscape) }
            bytes.append(high << 4 | low)
            index += 3
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { return .failure(.invalidEscape) }
        return .success(text)
    }

    static func isPlain(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "+"),
            UInt8(ascii: "="):
            true
        default:
            false
        }
    }

    /// W3C Baggage's `baggage-octet`: visible ASCII but `"`, `,`, `;` and `\`.
    static func isBaggageOctet(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: ",")
            && byte != UInt8(ascii: ";") && byte != UInt8(ascii: "\\")
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
