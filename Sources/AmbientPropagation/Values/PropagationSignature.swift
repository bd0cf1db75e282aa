// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation

// Why: signer and verifier must agree byte for byte on what a code covers; one format for both carriers.

/// What a signer computes a code over, and the signature field's text. One format for both
/// carriers: `v1:<key id>:<expiry>:<field>/<field>…:<code>`, where the expiry is whole
/// seconds since 1970 and the code 64 lowercase hex digits of HMAC-SHA256 over the message
/// (`appendMessageHead` and each field after it).
/// Every character is one the escaping leaves as is, so the text reads the same in a header
/// and in a baggage entry.
///
/// The code covers the decoded values, not their escaped text, so a baggage hop that
/// re-escapes an entry keeps it valid; and it covers the list of fields, so a field added
/// beside the signed ones is reported as unsigned, and one removed breaks the code.
struct PropagationSignature {
    /// Where the key id is, in the scratch the signature was parsed from.
    var keyID: Range<Int>
    /// Whole seconds since 1970.
    var expiry: Int64
    /// Where the expiry's digits are when they are its canonical decimal (no leading zero),
    /// so the message copies them instead of writing the number again; `nil` otherwise.
    var expiryDigits: Range<Int>?
    /// Where the list of signed fields' names is: `/`-separated, each checked, none twice.
    var names: Range<Int>
    /// How many names it lists.
    var nameCount: Int
    /// The code's 32 bytes (from its 64 lowercase hex digits).
    var code: Code

    typealias Code = (UInt64, UInt64, UInt64, UInt64)

    /// The most fields one signature lists (a bound on the work a receiver does for it).
    static let maximumFields = 64

    /// What every message starts with.
    static let messageTag: StaticString = "ambient-carrier-signature/1\n"

    /// Appends the start of the bytes the code covers: a version tag, the key id and the
    /// expiry (copied from `expiryDigits` where a parse found them canonical). Each field
    /// follows (``appendMessageField(name:count:to:)`` and its value).
    static func appendMessageHead(
        keyID: Range<Int>, expiry: Int64, expiryDigits: Range<Int>? = nil, to scratch: inout PropagationScratch
    ) {
        messageTag.withUTF8Buffer { _ = scratch.append($0) }
        scratch.appendCopy(of: keyID)
        scratch.append(UInt8(ascii: "\n"))
        if let expiryDigits {
            scratch.appendCopy(of: expiryDigits)
        } else {
            scratch.appendDecimal(expiry)
        }
        scratch.append(UInt8(ascii: "\n"))
    }

    /// Appends a field's name, already in `scratch` at `name`, and the length of its value;
    /// the caller appends the value's `count` decoded bytes and ends it with
    /// ``appendMessageFieldEnd(to:)``. Each value preceded by its length: no two different
    /// sets of fields give the same bytes.
    static func appendMessageField(name: Range<Int>, count: Int, to scratch: inout PropagationScratch) {
        scratch.appendCopy(of: name)
        appendMessageLength(count, to: &scratch)
    }

    private static func appendMessageLength(_ count: Int, to scratch: inout PropagationScratch) {
        scratch.append(UInt8(ascii: "\n"))
        scratch.appendDecimal(Int64(count))
        scratch.append(UInt8(ascii: ":"))
    }

    static func appendMessageFieldEnd(to scratch: inout PropagationScratch) {
        scratch.append(UInt8(ascii: "\n"))
    }

    /// The message a signer computes the code over, for `fields` (names and decoded
    /// values): where it is in `scratch`.
    static func message(
        keyID: String, expiry: Int64, fields: [(name: String, value: String)], in scratch: inout PropagationScratch
    ) -> Range<Int> {
        let keyRange = scratch.append(keyID)
        let start = scratch.count
        appendMessageHead(keyID: keyRange, expiry: expiry, to: &scratch)
        for (name, value) in fields {
            scratch.append(name)
            appendMessageLength(value.utf8.count, to: &scratch)
            scratch.append(value)
            appendMessageFieldEnd(to: &scratch)
        }
        return start..<scratch.count
    }

    /// The field's text for a signature by `keyID` over `names`, expiring at `expiry`.
    static func text(keyID: String, expiry: Int64, names: [String], code: [UInt8]) -> String {
        let hex = Array("0123456789abcdef".utf8)
        var digits = [UInt8]()
        digits.reserveCapacity(code.count * 2)
        for byte in code {
            digits.append(hex[Int(byte >> 4)])
            digits.append(hex[Int(byte & 0xF)])
        }
        return "v1:\(keyID):\(expiry):\(names.joined(separator: "/")):" + String(decoding: digits, as: UTF8.self)
    }

    /// Parses the signature field's (unescaped) text at `range` of `scratch`, or says what
    /// is wrong with it. Its parts stay where they are: nothing is copied.
    static func parse(
        _ range: Range<Int>, in scratch: borrowing PropagationScratch
    ) -> Result<
        PropagationSignature, PropagationRejection.Reason
    > {
        scratch.withBytes(range) { bytes in
            parse(bytes).map { parts in
                PropagationSignature(
                    keyID: parts.keyID.offset(by: range.lowerBound), expiry: parts.expiry,
                    expiryDigits: parts.expiryDigits?.offset(by: range.lowerBound),
                    names: parts.names.offset(by: range.lowerBound), nameCount: parts.nameCount, code: parts.code)
            }
        }
    }

    /// ``parse(_:in:)`` over the field's bytes: the parts as offsets into `bytes`. Reads the
    /// three short parts from the front and the code from the back, then checks the names
    /// between them (which may not hold a `:`), so each byte is read about once, by plain
    /// loops over the buffer (a signature is checked on every signed request).
    private static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>
    ) -> Result<
        PropagationSignature, PropagationRejection.Reason
    > {
        // What is wrong, told as the first failing check over the whole field would tell it.
        func malformed(_ problem: String) -> Result<PropagationSignature, PropagationRejection.Reason> {
            let colons = bytes.reduce(0) { $1 == UInt8(ascii: ":") ? $0 + 1 : $0 }
            return .failure(
                .malformedSignature(colons == 4 ? problem : "expected 5 parts separated by ':', found \(colons + 1)"))
        }
        let colon = UInt8(ascii: ":")
        // "v1:" first; then the key id, up to the second ':'.
        guard bytes.count > 3, bytes[0] == UInt8(ascii: "v"), bytes[1] == UInt8(ascii: "1"), bytes[2] == colon
        else {
            // With other than four ':', `malformed` reports the count of parts instead.
            return malformed("unknown version (this receiver reads v1)")
        }
        var index = 3
        let keyIDClass = ByteClass.keyID
        var outside: UInt8 = 0  // each byte's verdict OR-ed in: no branch per byte
        while index < bytes.count, bytes[index] != colon {
            outside |= keyIDClass.outside(bytes[index])
            index += 1
        }
        let keyID = 3..<index
        // The expiry, up to the third ':'.
        index += 1
        let expiryStart = index
        var expiry: Int64 = 0
        var notDigits: UInt8 = 0
        while index < bytes.count, bytes[index] != colon {
            let digit = bytes[index] &- UInt8(ascii: "0")
            notDigits |= digit > 9 ? 1 : 0
            expiry = expiry &* 10 &+ Int64(digit)
            index += 1
        }
        guard index < bytes.count else { return malformed("") }  // fewer than three ':'
        let expiryCount = index - expiryStart
        // The digits as a signer writes them (no leading zero): the message can copy them.
        let canonicalDigits = expiryCount == 1 || bytes[expiryStart] != UInt8(ascii: "0") ? expiryStart..<index : nil
        guard (1...64).contains(keyID.count), outside == 0 else {
            return malformed("invalid key id")
        }
        guard (1...12).contains(expiryCount), notDigits == 0 else {
            return malformed("the expiry is not 1 to 12 decimal digits")
        }
        let codeStart = bytes.count - 64
        // The ':' before the code is a fourth one, after the expiry's.
        guard codeStart - 1 > index, bytes[codeStart - 1] == colon else {
            return malformed("the code is not 64 hex digits")
        }
        let names = (index + 1)..<(codeStart - 1)
        var nameCount = 0
        if let problem = namesProblem(bytes, names, count: &nameCount) {
            return malformed(problem)
        }
        var code: Code = (0, 0, 0, 0)
        var invalid: UInt8 = 0
        withUnsafeMutableBytes(of: &code) { code in
            for offset in 0..<32 {
                let high = lowercaseHexValue(bytes[codeStart &+ 2 &* offset])
                let low = lowercaseHexValue(bytes[codeStart &+ 2 &* offset &+ 1])
                invalid |= (high | low) & 0x10
                code[offset] = high << 4 | (low & 0xF)
            }
        }
        guard invalid == 0 else {
            return malformed("the code is not 64 lowercase hex digits")
        }
        return .success(
            PropagationSignature(
                keyID: keyID, expiry: expiry,
                expiryDigits: canonicalDigits,
                names: names, nameCount: nameCount, code: code))
    }

    /// What is wrong with the list of names at `list` in `bytes`, if anything: too many, a
    /// name that is not 1 to 128 of `a-z0-9-`, or one listed twice (each compared with
    /// those before it: at most 64 names of a field within the receiver's limits, so the
    /// work stays bounded). Names are checked in order, each as a whole: the first name
    /// with a problem is the one reported. Counts the names into `listed`.
    private static func namesProblem(
        _ bytes: UnsafeBufferPointer<UInt8>, _ list: Range<Int>, count listed: inout Int
    ) -> String? {
        let slash = UInt8(ascii: "/")
        let fieldName = ByteClass.fieldName
        var nameStart = list.lowerBound
        var index = list.lowerBound
        while true {
            // To the name's end, each byte's verdict OR-ed in: no branch but the end's.
            var outside: UInt8 = 0
            while index < list.upperBound {
                let byte = bytes[index]
                if byte == slash { break }
                outside |= fieldName.outside(byte)
                index &+= 1
            }
            let count = index - nameStart
            guard listed < maximumFields else {
                return "lists more than \(maximumFields) fields"
            }
            guard (1...128).contains(count), outside == 0 else {
                return "a listed field name is not 1 to 128 of a-z, 0-9 and -"
            }
            // The names before this one, each followed by '/': is this one among them?
            var earlierStart = list.lowerBound
            var scan = list.lowerBound
            while scan < nameStart {
                if bytes[scan] == slash {
                    let earlier = UnsafeBufferPointer(rebasing: bytes[earlierStart..<scan])
                    if earlier.hasSameBytes(as: UnsafeBufferPointer(rebasing: bytes[nameStart..<index])) {
                        return "lists \(String(decoding: bytes[nameStart..<index], as: UTF8.self)) twice"
                    }
                    earlierStart = scan &+ 1
                }
                scan &+= 1
            }
            listed &+= 1
            guard index < list.upperBound else { return nil }
            index &+= 1
            nameStart = index
        }
    }

    /// Calls `body` with the code's 32 bytes.
    func withCode<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withUnsafeBytes(of: code, body)
    }

    static func isKeyIDByte(_ byte: UInt8) -> Bool {
        ByteClass.keyID.contains(byte)
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
/// HMAC-SHA256 (`Bridges/SwiftCrypto`). Ambient has no cryptography of its own. A class:
/// handing one to a request is a retain, not a copy through its type's value witnesses.
protocol PropagationAuthenticator: AnyObject, Sendable {
    /// The code for `message`.
    func code(for message: UnsafeRawBufferPointer) -> [UInt8]
    /// Whether `code` is the code for `message`, compared in constant time.
    func isValid(_ code: UnsafeRawBufferPointer, for message: UnsafeRawBufferPointer) -> Bool
}
