// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders

// Why: a value's text must survive as a header value and as a baggage value, and come back unchanged.

/// How a propagated value's text becomes a field that is valid as a header value and as a W3C
/// baggage value, and back.
///
/// Escaping leaves ASCII letters, digits and `-._~:@/+=` as they are and writes every other
/// byte of the UTF-8 as `%XX`. Unescaping is strict: it accepts literally only what a
/// baggage value may hold (visible ASCII but `"`, `,`, `;`, `\`), so a header repeated and
/// joined with a comma, a space or a control character is refused, never guessed at;
/// and it accepts any valid `%XX`, so a hop that escapes more than Ambient does is fine.
/// Both work on bytes, one pass each: what arrives is read once, at a bounded length.
enum PropagationEscaping {
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

    /// How many bytes the text `field` escapes has, or the reason it is not a field Ambient
    /// could have written (``PropagationRejection/Reason/duplicate`` for a comma: a repeated
    /// header, joined). Equal to `field.count` exactly when it has no escapes.
    static func unescapedCount(_ field: UnsafeBufferPointer<UInt8>) -> Result<Int, PropagationRejection.Reason> {
        // Most values escape nothing: the bytes that stand for themselves are passed over
        // first, one test each, and the rest read escape by escape.
        let plain = ByteClass.plainBaggageOctet
        var index = 0
        while index < field.count, plain.contains(field[index]) { index &+= 1 }
        var count = index
        while index < field.count {
            let byte = field[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < field.count, hexValue(field[index + 1]) != nil, hexValue(field[index + 2]) != nil
                else { return .failure(.invalidEscape) }
                index += 3
            } else if isBaggageOctet(byte) {
                index += 1
            } else {
                return .failure(byte == UInt8(ascii: ",") ? .duplicate : .invalidEscape)
            }
            count += 1
        }
        return .success(count)
    }

    /// Appends to `scratch` the `count` bytes (``unescapedCount(_:)``'s, which checked the
    /// field) that the field at `raw` in `scratch` escapes; returns where they are.
    static func appendUnescaped(_ raw: Range<Int>, count: Int, to scratch: inout PropagationScratch) -> Range<Int> {
        guard count != raw.count else {
            return scratch.appendCopy(of: raw)  // no escapes: the text is the field
        }
        scratch.reserve(raw.count)
        let start = scratch.count
        var index = raw.lowerBound
        while index < raw.upperBound {
            let byte = scratch[index]
            if byte == UInt8(ascii: "%"), index + 2 < raw.upperBound, let high = hexValue(scratch[index + 1]),
                let low = hexValue(scratch[index + 2])
            {
                scratch.append(high << 4 | low)
                index += 3
            } else {
                scratch.append(byte)
                index += 1
            }
        }
        return start..<scratch.count
    }

    /// The text the field at `raw` in `scratch` escapes (its unescaped bytes appended to
    /// `scratch` when it has escapes), or why it is not a field Ambient could have written.
    static func text(
        of raw: Range<Int>, in scratch: inout PropagationScratch
    ) -> Result<String, PropagationRejection.Reason> {
        let count: Int
        switch scratch.withBytes(raw, unescapedCount) {
        case .success(let value): count = value
        case .failure(let reason): return .failure(reason)
        }
        // No escapes: visible ASCII only, valid UTF-8 as it is.
        guard count != raw.count else { return .success(scratch.text(raw)) }
        let unescaped = appendUnescaped(raw, count: count, to: &scratch)
        return scratch.withBytes(unescaped) { String(validating: $0, as: UTF8.self) }.map { .success($0) }
            ?? .failure(.invalidEscape)
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
        ByteClass.baggageOctet.contains(byte)
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
