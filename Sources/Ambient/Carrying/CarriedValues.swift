/// The ambient types that travel between processes, and how: each as one string field
/// (a header) named after its ``CarriableValue/carrierKey``.
///
/// ```swift
/// let carried = CarriedValues(Clock.self, FeatureFlags.self)
///
/// // The test, calling a server:
/// let headers = withInjected(Clock.fixed(noon)) { carried.encode(.current) }
/// // ["ambient-clock": "fixed:…"]
///
/// // The server (or a child process), receiving them:
/// let context = try carried.decode(headers)
/// context.run { handle(request) }  // Clock.current.now == noon
/// ```
///
/// With the `ServiceContext` trait, an `AmbientInstrument` moves them through
/// swift-distributed-tracing's `inject`/`extract`, so any instrumented client and
/// server carry them.
///
/// Encodings are percent-escaped: everything but ASCII letters, digits and `-._~:@/+=,;`
/// becomes `%XX` of its UTF-8, so a field is always a valid header value.
public struct CarriedValues: Sendable, CustomStringConvertible {
    /// The types that travel, in the order given.
    public let types: [any CarriableValue.Type]
    /// Put before each ``CarriableValue/carrierKey`` to name its field: `"ambient-"`.
    public let keyPrefix: String

    /// The types `types` travel, each in the field `keyPrefix` + its key.
    ///
    /// - Precondition: every key (with the prefix) is a valid header name — letters,
    ///   digits and `-` — and no two types share one.
    public init(_ types: any CarriableValue.Type..., keyPrefix: String = "ambient-") {
        self.init(types, keyPrefix: keyPrefix)
    }

    /// The types `types` travel, each in the field `keyPrefix` + its key.
    public init(_ types: [any CarriableValue.Type], keyPrefix: String = "ambient-") {
        var seen: [String: String] = [:]
        for type in types {
            let key = keyPrefix + type.carrierKey
            precondition(
                !type.carrierKey.isEmpty && key.utf8.allSatisfy(Self.isKeyByte),
                "CarriedValues: \(type)'s field name \"\(key)\" is not a header name (letters, digits and - only)")
            let lowercased = key.lowercased()
            precondition(
                seen[lowercased] == nil,
                "CarriedValues: \(type) and \(seen[lowercased] ?? "") both travel as \"\(lowercased)\"")
            seen[lowercased] = "\(type)"
        }
        self.types = types
        self.keyPrefix = keyPrefix
    }

    /// The field name `type` travels under: ``keyPrefix`` + its key, lowercased (HTTP/2
    /// sends header names lowercased).
    public func key(for type: any CarriableValue.Type) -> String {
        (keyPrefix + type.carrierKey).lowercased()
    }

    /// The fields for the values `context` injects (one per listed type it injects whose
    /// encoding is not `nil`), escaped.
    public func encode(_ context: InjectionContext) -> [String: String] {
        var fields: [String: String] = [:]
        encode(context) { key, value in fields[key] = value }
        return fields
    }

    /// Hands each field for `context` to `write`: for carriers other than a dictionary.
    public func encode(_ context: InjectionContext, into write: (_ key: String, _ value: String) -> Void) {
        for type in types {
            if let encoding = type.encoding(in: context) {
                write(key(for: type), Self.escape(encoding))
            }
        }
    }

    /// A context injecting every listed type that has a field in `fields`.
    ///
    /// - Throws: The first field that does not decode; nothing is injected then.
    public func decode(_ fields: [String: String]) throws(CarriedValueDecodingError) -> InjectionContext {
        try decode { fields[$0] }
    }

    /// A context injecting every listed type that `field` finds a field for (called with
    /// each type's lowercased field name).
    ///
    /// - Throws: The first field that does not decode; nothing is injected then.
    public func decode(field: (String) -> String?) throws(CarriedValueDecodingError) -> InjectionContext {
        let (context, errors) = decodeSkippingInvalid(field: field)
        if let first = errors.first {
            throw first
        }
        return context
    }

    /// A context injecting every listed type whose field in `fields` decodes, and an error
    /// for each field that does not (its type then keeps whatever the receiver has).
    public func decodeSkippingInvalid(
        _ fields: [String: String]
    ) -> (context: InjectionContext, errors: [CarriedValueDecodingError]) {
        decodeSkippingInvalid { fields[$0] }
    }

    /// ``decodeSkippingInvalid(_:)`` for any carrier: `field` is called with each type's
    /// lowercased field name.
    public func decodeSkippingInvalid(
        field: (String) -> String?
    ) -> (context: InjectionContext, errors: [CarriedValueDecodingError]) {
        var context = InjectionContext()
        var errors: [CarriedValueDecodingError] = []
        for type in types {
            let key = key(for: type)
            guard let encoded = field(key) else { continue }
            do {
                guard let text = Self.unescape(encoded) else {
                    throw InvalidEscape()
                }
                context = try type.injecting(decoding: text, into: context)
            } catch {
                errors.append(
                    CarriedValueDecodingError(
                        key: key, encoded: encoded, typeName: "\(type)", reason: "\(error)"))
            }
        }
        return (context, errors)
    }

    /// `CarriedValues(ambient-clock: Clock, …)`.
    public var description: String {
        "CarriedValues(" + types.map { "\(key(for: $0)): \($0)" }.joined(separator: ", ") + ")"
    }

    // MARK: - Escaping

    private struct InvalidEscape: Error, CustomStringConvertible {
        var description: String { "invalid percent-escape (a % not followed by two hex digits, or not UTF-8)" }
    }

    private static func isKeyByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }

    private static func isPlainByte(_ byte: UInt8) -> Bool {
        isKeyByte(byte) || "._~:@/+=,;".utf8.contains(byte)
    }

    static func escape(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isPlainByte(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func unescape(_ text: String) -> String? {
        func digit(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        let utf8 = Array(text.utf8)
        var bytes: [UInt8] = []
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%") {
                guard index + 2 < utf8.count, let high = digit(utf8[index + 1]), let low = digit(utf8[index + 2])
                else { return nil }
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
