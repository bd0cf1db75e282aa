// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation

/// The known differences between `Defaults` and Linux's Foundation `UserDefaults`, each one
/// a place where `Defaults` follows Darwin's `UserDefaults` (which the code being migrated
/// was written against) and Linux's Foundation does not, or a deliberate choice. The
/// differential test tolerates exactly these; any other difference fails it.
///
/// | row | Linux `UserDefaults` | `Defaults` (and Darwin) | the Darwin rule |
/// |---|---|---|---|
/// | `doubleText` | `string` of `2.0` (or `Float(0)`) is `"2.0"` | `"2"` | `-[NSNumber stringValue]` is `%0.16g` of a double, `%0.7g` of a float (<https://developer.apple.com/documentation/foundation/nsnumber/stringvalue>) |
/// | `integerFromIntMaxUp` | `string`/`integer`/`double`/`float`/`bool` of `Int.max` or `UInt64(Int.max) + 1` are `nil`, 0, 0, 0, `false` | its digits, its bits as `Int`, the number, `true` | `-[NSNumber stringValue]`, `integerValue`, `doubleValue`, `boolValue` convert any number (<https://developer.apple.com/documentation/foundation/nsnumber/doublevalue>) |
/// | `outOfRangeDouble` | `integer` of `1e23` is `Int.min` (x86-64's conversion) | `Int.max` (saturating, as arm64 Darwin converts) | `-[NSNumber integerValue]` is C's conversion, undefined out of range; Ambient saturates on every platform |
/// | `urlArchive` | `set(URL)` stores the URL's *path* as a string (an https URL loses its scheme) | a keyed archive of the `NSURL` (`Data`), read back whole | `set(_:forKey:)` for a URL "stores the URL object as the root object of a Data archive" (<https://developer.apple.com/documentation/foundation/userdefaults/set(_:forkey:)-2bqjt>) |
/// | `sameNumberOtherKind` | `object`, `array`, `dictionary` (and a scalar's `string`) hold the stored number, or one inside a collection, as another kind, depending on timing: a suite saved and read back from its file returns a `Float` as a double and may return an exact double as a float; setting `0` over `0.0` keeps `0.0` | the number as stored, in `inMemory` | a property list on disk has only `<real>`, read back as a double on Darwin, so a reloaded store widens a float there too; the other two are Linux's reader and cache |
/// | `urlStringWithScheme` | `url` of `"https://example.com/x"` is `file:///cwd/https:/example.com/x` | `https://example.com/x` | Darwin reads a string as a path too; Ambient keeps reading the URL strings its earlier versions wrote |
struct DefaultsDeviation {
    let name: String

    static func explaining(
        getter: String, stored: PropertyList?, legacy: String, defaults: String
    ) -> DefaultsDeviation? {
        if getter.hasPrefix("sameNumberOtherKind:") { return DefaultsDeviation(name: "sameNumberOtherKind") }
        switch stored {
        case .float?:
            if getter == "string", let a = Double(unwrap(legacy)), let b = Double(unwrap(defaults)), a == b {
                return DefaultsDeviation(name: "doubleText")
            }
        case .double(let value)?:
            if getter == "string", let a = Double(unwrap(legacy)), let b = Double(unwrap(defaults)), a == b {
                return DefaultsDeviation(name: "doubleText")
            }
            if getter == "integer", !(Double(Int.min)..<Double(Int.max)).contains(value) {
                return DefaultsDeviation(name: "outOfRangeDouble")
            }
        case .unsignedInteger?, .integer(Int.max)?:
            if ["double", "float", "bool", "string", "integer"].contains(getter) {
                return DefaultsDeviation(name: "integerFromIntMaxUp")
            }
        case .data(let data)?:
            let isURLArchive = Defaults.inMemory(["archive": .data(data)]).url(forKey: "archive") != nil
            if isURLArchive, ["object", "string", "data", "url"].contains(getter) {
                return DefaultsDeviation(name: "urlArchive")
            }
        case .string(let text)?:
            if getter == "url", text.contains("://") { return DefaultsDeviation(name: "urlStringWithScheme") }
        default:
            break
        }
        // The same number as another `NSNumber` kind, at any depth of `object`, `array` and
        // `dictionary` (the readings mark those), and so in a scalar's text: a suite
        // saved and read back from its file has only `<real>`, so a float comes back a double
        // (Darwin too); Linux's reader may hand an exact double back as a float; and Linux's
        // cache keeps the stored object when an equal number is set (`0` over `0.0`).
        if getter == "string", let stored, sameNumber(unwrap(legacy), stored) {
            return DefaultsDeviation(name: "sameNumberOtherKind")
        }
        return nil
    }

    /// Whether `text` is the number `stored` holds.
    private static func sameNumber(_ text: String, _ stored: PropertyList) -> Bool {
        guard let number = Double(text) else { return false }
        switch stored {
        case .float(let value): return Float(number) == value
        case .double(let value): return number == value
        case .integer(let value): return number == Double(value)
        default: return false
        }
    }

    /// `Optional("x")` or `Optional(x)` → `x`.
    private static func unwrap(_ text: String) -> String {
        if text.hasPrefix("Optional(\""), text.hasSuffix("\")") { return String(text.dropFirst(10).dropLast(2)) }
        if text.hasPrefix("Optional("), text.hasSuffix(")") { return String(text.dropFirst(9).dropLast(1)) }
        return text
    }
}
