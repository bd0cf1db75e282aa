// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: a store holds only property-list values, checked when they go in.

/// A value a ``Defaults`` store can hold: the property-list types, checked.
///
/// Literals build it, so stores and snapshots read naturally:
///
/// ```swift
/// let defaults = Defaults.inMemory(["defaultColour": "Red", "launches": 3, "tags": ["a", "b"]])
/// #expect(defaults.snapshot == ["defaultColour": "Red", "launches": 4, "tags": ["a", "b"]])
/// ```
public enum PropertyList: Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case integer(Int)
    /// An unsigned integer above `Int.max` (up to `UInt64.max`), kept exactly as
    /// `UserDefaults` keeps it. Every smaller integer is an ``integer(_:)``: the
    /// initialisers never make this case for a value that fits in `Int`.
    case unsignedInteger(UInt64)
    case double(Double)
    /// A single-precision number (`NSNumber(value: Float)`, Objective-C's `float`), kept as
    /// `UserDefaults` keeps it, so its text is `"12.34"` as `-[NSNumber stringValue]` gives
    /// it, not the widened double's `"12.34000015258789"`; ``Defaults/double(forKey:)`` widens
    /// it, as `UserDefaults` does.
    case float(Float)
    case bool(Bool)
    case data(Data)
    case date(Date)
    case array([PropertyList])
    case dictionary([String: PropertyList])

    /// The checked form of a Foundation property-list value (`String`, any integer or
    /// floating-point type, `Bool`, `NSNumber`, `Data`, `Date`, and arrays or
    /// `String`-keyed dictionaries of them), or `nil` if `value` is not one.
    ///
    /// An `NSNumber` is classified by what it holds, as Darwin's `UserDefaults` hands
    /// numbers back: a ``bool(_:)`` only for a real boolean (`NSNumber(value: true)`,
    /// Objective-C's `@YES`), a ``double(_:)`` for a floating-point number, and an
    /// ``integer(_:)`` (or ``unsignedInteger(_:)`` above `Int.max`) for every other
    /// number, so `NSNumber(value: 1)` stays the integer 1. No number is ever stored as a
    /// different number.
    public init?(_ value: Any) {
        switch value {
        case let value as PropertyList: self = value
        case let value as String: self = .string(value)
        case let value as Data: self = .data(value)
        case let value as Date: self = .date(value)
        default:
            if let number = PropertyList.number(value) {
                self = number
            } else if let array = value as? [Any] {
                guard let elements = PropertyList.elements(array) else { return nil }
                self = .array(elements)
            } else if let array = value as? [Any?] {
                guard !array.contains(where: { $0 == nil }),
                    let elements = PropertyList.elements(array.map { $0! })
                else { return nil }
                self = .array(elements)
            } else if let dictionary = PropertyList.dictionary(value) {
                self = .dictionary(dictionary)
            } else {
                return nil
            }
        }
    }

    /// The Foundation value (`String`, `Int`, `Double`, `Bool`, `Data`, `Date`, `[Any]`,
    /// `[String: Any]`), as `UserDefaults.object(forKey:)` returns it.
    public var foundationValue: Any {
        switch self {
        case .string(let value): value
        case .integer(let value): value
        case .unsignedInteger(let value): value
        case .double(let value): value
        case .float(let value): value
        case .bool(let value): value
        case .data(let value): value
        case .date(let value): value
        case .array(let values): values.map(\.foundationValue)
        case .dictionary(let values): values.mapValues(\.foundationValue)
        }
    }

    /// A plain rendering: strings quoted, collections in brackets.
    public var description: String {
        switch self {
        case .string(let value): "\"\(value)\""
        case .integer(let value): "\(value)"
        case .unsignedInteger(let value): "\(value)"
        case .double(let value): "\(value)"
        case .float(let value): "\(value)"
        case .bool(let value): "\(value)"
        case .data(let value): "<\(value.count) bytes>"
        case .date(let value): "\(value)"
        case .array(let values): "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .dictionary(let values):
            "[" + values.keys.sorted().map { "\"\($0)\": \(values[$0]!)" }.joined(separator: ", ") + "]"
        }
    }

    private static func number(_ value: Any) -> PropertyList? {
        // A real NSNumber first: Swift's casts would read NSNumber 0 and 1 as `Bool`.
        if type(of: value) is NSNumber.Type, let number = value as? NSNumber {
            return PropertyList(number: number)
        }
        switch value {
        case let value as Int: return .integer(value)
        case let value as Double: return .double(value)
        case let value as Float: return .float(value)
        case let value as Bool where type(of: value as Any) == Bool.self: return .bool(value)
        case let value as any BinaryInteger: return PropertyList(exactly: value)
        default: return nil
        }
    }

    /// The class of a real boolean `NSNumber` (`__NSCFBoolean` on Darwin and on Linux):
    /// the one way to tell `@YES` from `@1` on both, since Darwin gives both the
    /// Objective-C type `c`.
    private static let booleanNumberClass: AnyClass = type(of: NSNumber(value: true))

    /// The number an `NSNumber` really holds.
    private init?(number: NSNumber) {
        if type(of: number) == PropertyList.booleanNumberClass {
            self = .bool(number.boolValue)
            return
        }
        switch number.objCType.pointee {
        case CChar(UInt8(ascii: "f")):
            self = .float(number.floatValue)
        case CChar(UInt8(ascii: "d")):
            self = .double(number.doubleValue)
        case CChar(UInt8(ascii: "Q")), CChar(UInt8(ascii: "L")), CChar(UInt8(ascii: "I")),
            CChar(UInt8(ascii: "S")), CChar(UInt8(ascii: "C")):
            guard let exact = PropertyList(exactly: number.uint64Value) else { return nil }
            self = exact
        default:
            guard let exact = PropertyList(exactly: number.int64Value) else { return nil }
            self = exact
        }
    }

    /// An ``integer(_:)``, or an ``unsignedInteger(_:)`` above `Int.max`; `nil` for an
    /// integer no case holds exactly (below `Int.min`, or above `UInt64.max`).
    private init?(exactly value: some BinaryInteger) {
        if let integer = Int(exactly: value) {
            self = .integer(integer)
        } else if let unsigned = UInt64(exactly: value) {
            self = .unsignedInteger(unsigned)
        } else {
            return nil
        }
    }

    private static func elements(_ values: [Any]) -> [PropertyList]? {
        var result: [PropertyList] = []
        result.reserveCapacity(values.count)
        for value in values {
            guard let element = PropertyList(value) else { return nil }
            result.append(element)
        }
        return result
    }

    private static func dictionary(_ value: Any) -> [String: PropertyList]? {
        let pairs: [(AnyHashable, Any?)]
        if let dictionary = value as? [String: Any] {
            pairs = dictionary.map { ($0.key, $0.value) }
        } else if let dictionary = value as? [AnyHashable: Any?] {
            pairs = dictionary.map { ($0.key, $0.value) }
        } else if let dictionary = value as? [AnyHashable: Any] {
            pairs = dictionary.map { ($0.key, $0.value) }
        } else {
            return nil
        }
        var result: [String: PropertyList] = [:]
        for (key, value) in pairs {
            guard let key = key.base as? String, let value, let element = PropertyList(value) else { return nil }
            result[key] = element
        }
        return result
    }
}

extension PropertyList: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// `"text"`
    public init(stringLiteral value: String) { self = .string(value) }
    /// `42`
    public init(integerLiteral value: Int) { self = .integer(value) }
    /// `2.5`
    public init(floatLiteral value: Double) { self = .double(value) }
    /// `true`
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `["a", 1]`
    public init(arrayLiteral elements: PropertyList...) { self = .array(elements) }
    /// `["key": "value"]`
    public init(dictionaryLiteral elements: (String, PropertyList)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
