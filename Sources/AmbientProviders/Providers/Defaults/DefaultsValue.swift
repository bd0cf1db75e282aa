// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: typed keys need each type's way to and from a property list.

/// A type that ``Defaults/Key`` can store: it converts to and from a ``PropertyList``.
///
/// Shipped for `Int`, `Double`, `Bool`, `String`, `Data`, `Date`, `URL`, and arrays and
/// `String`-keyed dictionaries of them. For your own types, declare the conformance and
/// pick up a ready-made implementation:
///
/// ```swift
/// enum Theme: String, DefaultsValue { case light, dark }          // stored as its raw value
/// struct Layout: DefaultsCodable { var columns: Int }             // stored as JSON data
/// ```
public protocol DefaultsValue: Sendable {
    /// The value a property list holds, or `nil` if it holds something else.
    init?(propertyList: PropertyList)
    /// This value as a property list.
    var propertyList: PropertyList { get }
}

/// A `Codable` value stored in ``Defaults`` as JSON-encoded `Data`. Conform and you are done.
public protocol DefaultsCodable: DefaultsValue, Codable {}

extension DefaultsCodable {
    /// Decodes the JSON `Data` the property list holds.
    public init?(propertyList: PropertyList) {
        guard case .data(let data) = propertyList,
            let value = try? JSONDecoder().decode(Self.self, from: data)
        else { return nil }
        self = value
    }

    /// The JSON encoding. A value that cannot be encoded (a non-finite number, say) is a
    /// programming error and traps with a message naming its type.
    public var propertyList: PropertyList {
        do {
            return .data(try JSONEncoder().encode(self))
        } catch {
            preconditionFailure("Defaults: cannot encode \(Self.self) as JSON to store it: \(error)")
        }
    }
}

extension DefaultsValue where Self: RawRepresentable, RawValue: DefaultsValue {
    /// The value for the raw value the property list holds.
    public init?(propertyList: PropertyList) {
        guard let raw = RawValue(propertyList: propertyList) else { return nil }
        self.init(rawValue: raw)
    }

    /// The raw value as a property list.
    public var propertyList: PropertyList {
        rawValue.propertyList
    }
}

extension String: DefaultsValue {
    /// The string a property list holds.
    public init?(propertyList: PropertyList) {
        guard case .string(let value) = propertyList else { return nil }
        self = value
    }

    /// `.string(self)`.
    public var propertyList: PropertyList { .string(self) }
}

extension Int: DefaultsValue {
    /// The integer a property list holds (a whole `double` or a numeric string converts).
    public init?(propertyList: PropertyList) {
        switch propertyList {
        case .integer(let value): self = value
        case .bool(let value): self = value ? 1 : 0
        case .double(let value):
            guard let value = Int(exactly: value) else { return nil }
            self = value
        case .float(let value):
            guard let value = Int(exactly: value) else { return nil }
            self = value
        case .string(let value):
            guard let value = Int(value) else { return nil }
            self = value
        default: return nil
        }
    }

    /// `.integer(self)`.
    public var propertyList: PropertyList { .integer(self) }
}

extension UInt64: DefaultsValue {
    /// Any non-negative integer (and an integral double or numeric string in range).
    public init?(propertyList: PropertyList) {
        switch propertyList {
        case .integer(let value):
            guard let value = UInt64(exactly: value) else { return nil }
            self = value
        case .unsignedInteger(let value): self = value
        case .double(let value):
            guard let value = UInt64(exactly: value) else { return nil }
            self = value
        case .float(let value):
            guard let value = UInt64(exactly: value) else { return nil }
            self = value
        case .string(let value):
            guard let value = UInt64(value) else { return nil }
            self = value
        default: return nil
        }
    }

    /// An ``PropertyList/integer(_:)``, or ``PropertyList/unsignedInteger(_:)`` above `Int.max`.
    public var propertyList: PropertyList {
        Int(exactly: self).map(PropertyList.integer) ?? .unsignedInteger(self)
    }
}

extension Double: DefaultsValue {
    /// The number a property list holds (an integer or a numeric string converts).
    public init?(propertyList: PropertyList) {
        switch propertyList {
        case .double(let value): self = value
        case .float(let value): self = Double(value)
        case .integer(let value): self = Double(value)
        case .bool(let value): self = value ? 1 : 0
        case .unsignedInteger(let value):
            guard let value = Double(exactly: value) else { return nil }
            self = value
        case .string(let value):
            guard let value = Double(value) else { return nil }
            self = value
        default: return nil
        }
    }

    /// `.double(self)`.
    public var propertyList: PropertyList { .double(self) }
}

extension Bool: DefaultsValue {
    /// The Boolean a property list holds (`1`/`0` and `"true"`/`"YES"`/… convert).
    public init?(propertyList: PropertyList) {
        switch propertyList {
        case .bool(let value): self = value
        case .integer(let value): self = value != 0
        case .unsignedInteger(let value): self = value != 0
        case .string(let value):
            switch value.lowercased() {
            case "true", "yes", "1": self = true
            case "false", "no", "0": self = false
            default: return nil
            }
        default: return nil
        }
    }

    /// `.bool(self)`.
    public var propertyList: PropertyList { .bool(self) }
}

extension Data: DefaultsValue {
    /// The data a property list holds.
    public init?(propertyList: PropertyList) {
        guard case .data(let value) = propertyList else { return nil }
        self = value
    }

    /// `.data(self)`.
    public var propertyList: PropertyList { .data(self) }
}

extension Date: DefaultsValue {
    /// The date a property list holds.
    public init?(propertyList: PropertyList) {
        guard case .date(let value) = propertyList else { return nil }
        self = value
    }

    /// `.date(self)`.
    public var propertyList: PropertyList { .date(self) }
}

extension URL: DefaultsValue {
    /// The URL a property list holds, read as `UserDefaults.url(forKey:)` reads it: a keyed
    /// archive of an `NSURL` (what `UserDefaults.set(_:forKey:)` writes for a URL on Apple
    /// platforms, and what ``propertyList`` writes), or a path string, made a file URL with
    /// `~` expanded (`"~/Documents"`, `"/tmp/a"`). A string with a scheme (`"https://…"`,
    /// what Ambient wrote for a URL before it wrote archives) is read as that URL;
    /// `UserDefaults` would read it as a relative path.
    public init?(propertyList: PropertyList) {
        switch propertyList {
        case .data(let data):
            guard let url = URLArchive.url(from: data) else { return nil }
            self = url
        case .string(let text):
            self = URLArchive.url(fromString: text)
        default:
            return nil
        }
    }

    /// A keyed archive of the URL as an `NSURL`: what `UserDefaults.set(_:forKey:)` writes on
    /// Apple platforms, so legacy code reading the same suite with `UserDefaults` gets it back.
    public var propertyList: PropertyList { .data(URLArchive.data(for: self)) }
}

extension Array: DefaultsValue where Element: DefaultsValue {
    /// The array a property list holds, if every element converts.
    public init?(propertyList: PropertyList) {
        guard case .array(let values) = propertyList else { return nil }
        var result: [Element] = []
        for value in values {
            guard let element = Element(propertyList: value) else { return nil }
            result.append(element)
        }
        self = result
    }

    /// `.array` of the elements.
    public var propertyList: PropertyList { .array(map(\.propertyList)) }
}

extension Dictionary: DefaultsValue where Key == String, Value: DefaultsValue {
    /// The dictionary a property list holds, if every value converts.
    public init?(propertyList: PropertyList) {
        guard case .dictionary(let values) = propertyList else { return nil }
        var result: [String: Value] = [:]
        for (key, value) in values {
            guard let element = Value(propertyList: value) else { return nil }
            result[key] = element
        }
        self = result
    }

    /// `.dictionary` of the values.
    public var propertyList: PropertyList { .dictionary(mapValues(\.propertyList)) }
}
