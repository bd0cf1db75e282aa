// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: ported code expects Darwin's getter conversions; Linux's Foundation differs, so they are spelled out.

/// The conversions of Darwin's `UserDefaults` getters, which the code being migrated was
/// written against: `integer(forKey:)` is `-[NSNumber integerValue]` or
/// `-[NSString integerValue]`, and so on. Written out here (not delegated to Foundation)
/// so they are the same on every platform: Linux's Foundation differs in places, for
/// example it reads `0.5` as `false`.
///
/// | stored            | `integer` | `double` | `bool`  | `string`  |
/// |-------------------|-----------|----------|---------|-----------|
/// | `true` / `false`  | 1 / 0     | 1 / 0    | itself  | "1" / "0" |
/// | `7`               | 7         | 7.0      | true    | "7"       |
/// | `0`               | 0         | 0.0      | false   | "0"       |
/// | `2.5`             | 2         | 2.5      | true    | "2.5"     |
/// | `Float(12.34)`    | 12        | 12.34000015258789 | true | "12.34" |
/// | `0.5`             | 0         | 0.5      | true    | "0.5"     |
/// | `UInt64.max`      | -1        | 1.8e19   | true    | "18446744073709551615" |
/// | `" 42abc"`        | 42        | 42.0     | true    | itself    |
/// | `"YES"`, `"true"` | 0         | 0.0      | true    | itself    |
/// | `"no"`, `"0"`     | 0         | 0.0      | false   | itself    |
/// | data, date, array, dictionary | 0 | 0.0 | false | `nil`      |
extension PropertyList {
    /// `-[NSNumber integerValue]` / `-[NSString integerValue]`: truncates a double
    /// (saturating out of range, 0 for NaN); wraps an unsigned integer's bits, as
    /// `integerValue` does; parses a string's leading integer; 0 otherwise.
    var userDefaultsInteger: Int {
        switch self {
        case .integer(let value): value
        case .unsignedInteger(let value): Int(truncatingIfNeeded: value)
        case .double(let value): Self.saturatingInteger(value)
        case .float(let value): Self.saturatingInteger(Double(value))
        case .bool(let value): value ? 1 : 0
        case .string(let value): Self.leadingInteger(value)
        case .data, .date, .array, .dictionary: 0
        }
    }

    /// `-[NSNumber doubleValue]` / `-[NSString doubleValue]`: any number; a string's leading
    /// decimal number; 0 otherwise.
    var userDefaultsDouble: Double {
        switch self {
        case .integer(let value): Double(value)
        case .unsignedInteger(let value): Double(value)
        case .double(let value): value
        case .float(let value): Double(value)
        case .bool(let value): value ? 1 : 0
        case .string(let value): Self.leadingDouble(value)
        case .data, .date, .array, .dictionary: 0
        }
    }

    /// `-[NSNumber boolValue]` / `-[NSString boolValue]`: any non-zero number; a string
    /// starting (after spaces, a sign and zeros) with Y, y, T, t or a digit 1–9; `false`
    /// otherwise.
    var userDefaultsBool: Bool {
        switch self {
        case .integer(let value): value != 0
        case .unsignedInteger(let value): value != 0
        case .double(let value): value != 0
        case .float(let value): value != 0
        case .bool(let value): value
        case .string(let value): Self.stringBool(value)
        case .data, .date, .array, .dictionary: false
        }
    }

    /// The string itself, or a number's `-[NSNumber stringValue]`; `nil` otherwise.
    var userDefaultsString: String? {
        switch self {
        case .string(let value): value
        case .integer(let value): String(value)
        case .unsignedInteger(let value): String(value)
        case .double(let value): Self.numberString(value)
        case .float(let value): Self.numberString(value)
        case .bool(let value): value ? "1" : "0"
        case .data, .date, .array, .dictionary: nil
        }
    }

    /// The data itself; `nil` otherwise (`data(forKey:)`).
    var userDefaultsData: Data? {
        guard case .data(let value) = self else { return nil }
        return value
    }

    /// The array, if every element is a string; `nil` otherwise (`stringArray(forKey:)`).
    var userDefaultsStringArray: [String]? {
        guard case .array(let values) = self else { return nil }
        var strings: [String] = []
        strings.reserveCapacity(values.count)
        for value in values {
            guard case .string(let string) = value else { return nil }
            strings.append(string)
        }
        return strings
    }

    /// The URL `url(forKey:)` reads, as `UserDefaults.url(forKey:)` reads it: a keyed archive
    /// of an `NSURL` (what `init(url:)` writes, and `UserDefaults.set(_:forKey:)` on Apple
    /// platforms), or a path string, made a file URL with `~` expanded (`"~/Documents"`,
    /// `"/tmp/a"`). A string with a scheme (`"https://…"`) is read as that URL; `UserDefaults`
    /// would read it as a relative path. `nil` for anything else.
    var userDefaultsURL: URL? {
        switch self {
        case .data(let data): URLArchive.url(from: data)
        case .string(let text): URLArchive.url(fromString: text)
        default: nil
        }
    }

    /// A URL as `UserDefaults.set(_:forKey:)` stores one on Apple platforms: a keyed archive of
    /// the `NSURL`, so legacy code reading the same suite with `UserDefaults` gets it back.
    init(url: URL) {
        self = .data(URLArchive.data(for: url))
    }

    // MARK: - NSNumber and NSString, spelled out

    /// `Int(value)` toward zero, clamped to `Int`'s range; 0 for NaN.
    static func saturatingInteger(_ value: Double) -> Int {
        if value.isNaN { return 0 }
        if value >= 0x1p63 { return .max }
        if value < -0x1p63 { return .min }
        return Int(value)
    }

    /// `-[NSNumber stringValue]` of a double: `%0.16g`, so 2.0 is "2" and 0.1 is "0.1".
    static func numberString(_ value: Double) -> String {
        String(format: "%0.16g", value)
    }

    /// `-[NSNumber stringValue]` of a float: `%0.7g`, so `Float(12.34)` is "12.34".
    static func numberString(_ value: Float) -> String {
        String(format: "%0.7g", Double(value))
    }

    /// The text after leading white space.
    private static func trimmingLeadingSpace(_ text: String) -> Substring {
        text.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    }

    /// `-[NSString integerValue]`: optional sign, then decimal digits, saturating.
    static func leadingInteger(_ text: String) -> Int {
        var rest = trimmingLeadingSpace(text)
        var negative = false
        if let sign = rest.first, sign == "+" || sign == "-" {
            negative = sign == "-"
            rest = rest.dropFirst()
        }
        var magnitude = 0
        for character in rest {
            guard let digit = character.wholeNumberValue, character.isASCII else { break }
            let (times, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (plus, overflow2) = times.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return negative ? .min : .max }
            magnitude = plus
        }
        return negative ? -magnitude : magnitude
    }

    /// `-[NSString doubleValue]`: the longest leading decimal number (sign, digits, point,
    /// exponent), or 0.
    static func leadingDouble(_ text: String) -> Double {
        let rest = trimmingLeadingSpace(text)
        var candidate = String(rest.prefix { "+-.0123456789eE".contains($0) })
        while !candidate.isEmpty {
            if let value = Double(candidate) { return value }
            candidate.removeLast()
        }
        return 0
    }

    /// `-[NSString boolValue]`.
    static func stringBool(_ text: String) -> Bool {
        var rest = trimmingLeadingSpace(text)
        if let sign = rest.first, sign == "+" || sign == "-" { rest = rest.dropFirst() }
        rest = rest.drop { $0 == "0" }
        guard let first = rest.first else { return false }
        return "YyTt123456789".contains(first)
    }
}
