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
        var bytes = Array("ambient-carrier-signature/1\n".utf8)
        bytes.reserveCapacity(bytes.count + 64 + fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 16 })
        bytes += keyID.utf8
        bytes.append(UInt8(ascii: "\n"))
        bytes += String(expiry).utf8
        bytes.append(UInt8(ascii: "\n"))
        for (name, value) in fields {
            bytes += name.utf8
            bytes.append(UInt8(ascii: "\n"))
            bytes += String(value.utf8.count).utf8
            bytes.append(UInt8(ascii: ":"))
            bytes += value.utf8
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
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

    /// Parses a signature field's (unescaped) text, or says what is wrong with it.
    static func parse(_ text: String) -> Result<CarrierSignature, CarrierRejection.Reason> {
        let parts = text.utf8.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard parts.count == 5 else {
            return .failure(.malformedSignature("expected 5 parts separated by ':', found \(parts.count)"))
        }
        guard parts[0].elementsEqual("v1".utf8) else {
            return .failure(.malformedSignature("unknown version (this receiver reads v1)"))
        }
        let keyID = parts[1]
        guard (1...64).contains(keyID.count), keyID.allSatisfy(isKeyIDByte) else {
            return .failure(.malformedSignature("invalid key id"))
        }
        let expiryDigits = parts[2]
        guard (1...12).contains(expiryDigits.count), expiryDigits.allSatisfy(isDigit),
            let expiry = Int64(String(decoding: expiryDigits, as: UTF8.self))
        else {
            return .failure(.malformedSignature("the expiry is not 1 to 12 decimal digits"))
        }
        let names = parts[3].split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard (1...maximumFields).contains(names.count) else {
            return .failure(.malformedSignature("lists \(names.count) fields (1 to \(maximumFields) allowed)"))
        }
        var fields = [String]()
        fields.reserveCapacity(names.count)
        for name in names {
            guard (1...128).contains(name.count), name.allSatisfy(isFieldNameByte) else {
                return .failure(.malformedSignature("a listed field name is not 1 to 128 of a-z, 0-9 and -"))
            }
            let name = String(decoding: name, as: UTF8.self)
            guard !fields.contains(name) else {
                return .failure(.malformedSignature("lists \(name) twice"))
            }
            fields.append(name)
        }
        let hex = parts[4]
        guard hex.count == 64 else {
            return .failure(.malformedSignature("the code is not 64 hex digits"))
        }
        var code = [UInt8]()
        code.reserveCapacity(32)
        var index = hex.startIndex
        while index != hex.endIndex {
            let next = hex.index(after: index)
            guard let high = lowercaseHexValue(hex[index]), let low = lowercaseHexValue(hex[next]) else {
                return .failure(.malformedSignature("the code is not 64 lowercase hex digits"))
            }
            code.append(high << 4 | low)
            index = hex.index(after: next)
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

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func lowercaseHexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
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
