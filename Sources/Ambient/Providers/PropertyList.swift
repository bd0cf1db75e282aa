import Foundation

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
    case double(Double)
    case bool(Bool)
    case data(Data)
    case date(Date)
    case array([PropertyList])
    case dictionary([String: PropertyList])

    /// The checked form of a Foundation property-list value (`String`, any integer or
    /// floating-point type, `Bool`, `NSNumber`, `Data`, `Date`, and arrays or
    /// `String`-keyed dictionaries of them), or `nil` if `value` is not one.
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
        case .double(let value): value
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
        case .double(let value): "\(value)"
        case .bool(let value): "\(value)"
        case .data(let value): "<\(value.count) bytes>"
        case .date(let value): "\(value)"
        case .array(let values): "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .dictionary(let values):
            "[" + values.keys.sorted().map { "\"\($0)\": \(values[$0]!)" }.joined(separator: ", ") + "]"
        }
    }

    private static func number(_ value: Any) -> PropertyList? {
        switch value {
        case let value as Bool where type(of: value) == Bool.self: return .bool(value)
        case let value as Int: return .integer(value)
        case let value as Double: return .double(value)
        case let value as Float: return .double(Double(value))
        case let value as any BinaryInteger:
            guard let integer = Int(exactly: value) else { return nil }
            return .integer(integer)
        case let value as NSNumber:
            switch String(cString: value.objCType) {
            case "c", "B": return .bool(value.boolValue)
            case "f", "d": return .double(value.doubleValue)
            default: return .integer(value.intValue)
            }
        default: return nil
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
