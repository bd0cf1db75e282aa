import Foundation

/// What a signer computes a code over, and the signature field's text. One format for both
/// carriers: `v1:<key id>:<expiry>:<field>/<field>…:<code>`, where the expiry is whole
/// seconds since 1970 and the code 64 lowercase hex digits of HMAC-SHA256 over ``message``.
/// Every character is one the escaping leaves as is, so the text reads the same in a header
/// and in a baggage entry.
///
/// The code covers the decoded values, not their escaped text, so a baggage hop that
/// re-escapes an entry keeps it valid; and it covers the list of fields, so a field added
/// beside the signed ones is reported as unsigned, and one removed breaks the code.
struct CarrierSignature: Sendable, Equatable {
    var keyID: String
    /// Whole seconds since 1970.
    var expiry: Int64
    /// The signed fields' names, in the order the code covers them.
    var fields: [String]
    /// The 32-byte code.
    var code: [UInt8]

    /// The most fields one signature lists (a bound on the work a receiver does for it).
    static let maximumFields = 64

    /// The bytes the code covers: a version tag, the key id, the expiry, then each field's
    /// name and its decoded value, each value preceded by its length, so no two different
    /// sets of fields give the same bytes.
    static func message(keyID: String, expiry: Int64, fields: [(name: String, value: String)]) -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(64 + fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 24 })
        bytes.append(contentsOf: "ambient-carrier-signature/1\n".utf8)
        bytes.append(contentsOf: keyID.utf8)
        bytes.append(UInt8(ascii: "\n"))
        appendDecimal(expiry, to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        for (name, value) in fields {
            bytes.append(contentsOf: name.utf8)
            bytes.append(UInt8(ascii: "\n"))
            appendDecimal(Int64(value.utf8.count), to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            bytes.append(contentsOf: value.utf8)
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }

    /// Appends `value` (not negative) in decimal digits, most significant first.
    private static func appendDecimal(_ value: Int64, to bytes: inout [UInt8]) {
        let value = UInt64(max(value, 0))
        var divisor: UInt64 = 1
        while divisor <= value / 10 { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }

    /// The field's text.
    var text: String {
        let hex = Array("0123456789abcdef".utf8)
        var digits = [UInt8]()
        digits.reserveCapacity(code.count * 2)
        for byte in code {
            digits.append(hex[Int(byte >> 4)])
            digits.append(hex[Int(byte & 0xF)])
        }
        return "v1:\(keyID):\(expiry):\(fields.joined(separator: "/")):" + String(decoding: digits, as: UTF8.self)
    }

    /// Parses a signature field's (unescaped) text, or says what is wrong with it: one pass
    /// over its bytes.
    static func parse(_ bytes: ArraySlice<UInt8>) -> Result<CarrierSignature, CarrierRejection.Reason> {
        // The four ':' that separate the five parts.
        var colons: (Int, Int, Int, Int) = (0, 0, 0, 0)
        var found = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: ":") {
            switch found {
            case 0: colons.0 = index
            case 1: colons.1 = index
            case 2: colons.2 = index
            case 3: colons.3 = index
            default: break
            }
            found += 1
        }
        guard found == 4 else {
            return .failure(.malformedSignature("expected 5 parts separated by ':', found \(found + 1)"))
        }
        let start = bytes.startIndex
        guard colons.0 - start == 2, bytes[start] == UInt8(ascii: "v"), bytes[start + 1] == UInt8(ascii: "1") else {
            return .failure(.malformedSignature("unknown version (this receiver reads v1)"))
        }
        let keyID = bytes[(colons.0 + 1)..<colons.1]
        guard (1...64).contains(keyID.count), keyID.allSatisfy(isKeyIDByte) else {
            return .failure(.malformedSignature("invalid key id"))
        }
        let expiryDigits = bytes[(colons.1 + 1)..<colons.2]
        guard (1...12).contains(expiryDigits.count) else {
            return .failure(.malformedSignature("the expiry is not 1 to 12 decimal digits"))
        }
        var expiry: Int64 = 0
        for digit in expiryDigits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else {
                return .failure(.malformedSignature("the expiry is not 1 to 12 decimal digits"))
            }
            expiry = expiry * 10 + Int64(digit - UInt8(ascii: "0"))
        }
        var fields = [String]()
        var nameStart = colons.2 + 1
        for index in (colons.2 + 1)...colons.3 where index == colons.3 || bytes[index] == UInt8(ascii: "/") {
            let name = bytes[nameStart..<index]
            nameStart = index + 1
            guard fields.count < maximumFields else {
                return .failure(.malformedSignature("lists more than \(maximumFields) fields"))
            }
            guard (1...128).contains(name.count), name.allSatisfy(isFieldNameByte) else {
                return .failure(.malformedSignature("a listed field name is not 1 to 128 of a-z, 0-9 and -"))
            }
            let text = String(decoding: name, as: UTF8.self)
            guard !fields.contains(text) else {
                return .failure(.malformedSignature("lists \(text) twice"))
            }
            fields.append(text)
        }
        let hex = bytes[(colons.3 + 1)...]
        guard hex.count == 64 else {
            return .failure(.malformedSignature("the code is not 64 hex digits"))
        }
        var code = [UInt8](repeating: 0, count: 32)
        var valid = true
        for offset in 0..<32 {
            let high = lowercaseHexValue(hex[hex.startIndex + 2 * offset])
            let low = lowercaseHexValue(hex[hex.startIndex + 2 * offset + 1])
            valid = valid && high < 16 && low < 16
            code[offset] = high << 4 | (low & 0xF)
        }
        guard valid else {
            return .failure(.malformedSignature("the code is not 64 lowercase hex digits"))
        }
        return .success(
            CarrierSignature(keyID: String(decoding: keyID, as: UTF8.self), expiry: expiry, fields: fields, code: code))
    }

    static func isKeyIDByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }

    static func isFieldNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"): true
        default: false
        }
    }

    /// The digit's value, or 16 for anything but `0-9a-f`.
    private static func lowercaseHexValue(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: 16
        }
    }
}

/// Computes and checks message authentication codes: the SwiftCrypto trait supplies
/// HMAC-SHA256 (`Bridges/SwiftCrypto`). Ambient has no cryptography of its own.
protocol CarrierAuthenticator: Sendable {
    /// The code for `message`.
    func code(for message: [UInt8]) -> [UInt8]
    /// Whether `code` is the code for `message`, compared in constant time.
    func isValid(_ code: [UInt8], for message: [UInt8]) -> Bool
}
