// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
// Why: a propagated clock is a decimal number on every signed request; the common short ones are read without a string.

/// Reads a decimal number as Swift prints a `Double`, exactly as `Double(_:)` reads it.
enum DecimalText {
    /// The `Double` that `bytes` (`[-]digits[.digits]`) writes, when it has at most 15
    /// significant digits; `nil` for anything else (an exponent, more digits, other
    /// characters), which the caller reads with `Double(_:)`.
    ///
    /// Exact, not approximate: a whole number below 10¹⁵ and a power of ten up to 10²² are
    /// both exact `Double`s, and one IEEE division of the two is correctly rounded, which
    /// is what `Double(_:)` returns for the same text (the fast path of Clinger's algorithm).
    static func shortDouble(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index = 1 }
        var mantissa: UInt64 = 0
        var digits = 0  // significant: leading zeros are not counted
        var fractionDigits = 0
        var sawPoint = false
        var sawDigit = false
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: ".") {
                guard !sawPoint else { return nil }
                sawPoint = true
                continue
            }
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            sawDigit = true
            if sawPoint { fractionDigits += 1 }
            if mantissa == 0, digit == 0 { continue }
            digits += 1
            guard digits <= 15 else { return nil }
            mantissa = mantissa &* 10 &+ UInt64(digit)
        }
        // "1." and ".5" are not how Swift prints a number: leave them to `Double(_:)`.
        guard sawDigit, bytes.last != UInt8(ascii: "."), bytes[negative ? 1 : 0] != UInt8(ascii: "."),
            fractionDigits <= 22
        else { return nil }
        let magnitude = Double(mantissa) / powersOfTen[fractionDigits]
        return negative ? -magnitude : magnitude
    }

    /// 10⁰ through 10²², each exact.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
        1e19, 1e20, 1e21, 1e22,
    ]
}
