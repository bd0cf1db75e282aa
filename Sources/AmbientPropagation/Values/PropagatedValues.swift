// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders

// Why: a test fixes a server's values by sending them along; this lists which types travel, and how.

/// The ambient types that travel between processes, and how: each as one string field named
/// after its ``PropagatableValue/propagationKey``, in a request's headers or its W3C `baggage`.
///
/// A receiver applies propagated values only from senders it trusts (``PropagationTrust``): signed
/// with a key it holds, or vouched for by a check it already makes. Anything else is dropped
/// and reported as a ``PropagationRejection``.
///
/// ```swift
/// let propagated = PropagatedValues(Clock.self, FeatureFlags.self)
///
/// // The test, calling a server, signs with a key the server accepts (SwiftCrypto trait):
/// let headers = withInjected(Clock.fixed(noon)) { propagated.encode(.current, signingWith: signer) }
/// // ["ambient-clock": "fixed:43200.0", "ambient-signature": "v1:test:…"]
///
/// // The server, receiving them:
/// let context = try propagated.decode(headers, trusting: .signed(by: [testKey]))
/// context.run { handle(request) }  // Clock.current.now == noon
/// ```
///
/// With the `ServiceContext` trait, an `AmbientInstrument` does both through
/// swift-distributed-tracing's `inject`/`extract`, so any instrumented client and server
/// carry them.
///
/// Encodings are percent-escaped: everything but ASCII letters, digits and `-._~:@/+=`
/// becomes `%XX` of its UTF-8, so a field is always a valid header value and a valid
/// baggage value.
public struct PropagatedValues: Sendable, CustomStringConvertible {
    /// Everything a decode reads, behind one reference: a request copies a `PropagatedValues`
    /// into its closures several times, and a copy is then one retain, not one per array.
    private final class Storage: Sendable {
        let types: [any PropagatableValue.Type]
        let keyPrefix: String
        let fieldNames: [String]
        let fieldNameBytes: [[UInt8]]
        let signatureField: String
        let signatureFieldBytes: [UInt8]
        /// Whether a listed field's name or the signature's is this many bytes long.
        let nameLengths: [Bool]

        init(types: [any PropagatableValue.Type], keyPrefix: String, fieldNames: [String], signatureField: String) {
            self.types = types
            self.keyPrefix = keyPrefix
            self.fieldNames = fieldNames
            self.fieldNameBytes = fieldNames.map { Array($0.utf8) }
            self.signatureField = signatureField
            self.signatureFieldBytes = Array(signatureField.utf8)
            let lengths = (fieldNames + [signatureField]).map(\.utf8.count)
            var nameLengths = [Bool](repeating: false, count: (lengths.max() ?? 0) + 1)
            for length in lengths { nameLengths[length] = true }
            self.nameLengths = nameLengths
        }
    }

    private let storage: Storage

    /// The types that travel, in the order given.
    public var types: [any PropagatableValue.Type] { storage.types }
    /// Put before each ``PropagatableValue/propagationKey`` to name its field: `"ambient-"`.
    public var keyPrefix: String { storage.keyPrefix }
    /// Each type's field name, lowercased, in the order of ``types``; and as bytes, for
    /// matching baggage keys.
    var fieldNames: [String] { storage.fieldNames }
    var fieldNameBytes: [[UInt8]] { storage.fieldNameBytes }
    /// The field a signature travels in: ``keyPrefix`` + `signature`.
    public var signatureField: String { storage.signatureField }
    var signatureFieldBytes: [UInt8] { storage.signatureFieldBytes }
    /// Whether a listed field's name or the signature's is this many bytes long.
    var nameLengths: [Bool] { storage.nameLengths }

    /// The name of the W3C Baggage header: `baggage`.
    public static let baggageHeader = "baggage"

    /// The types `types` travel, each in the field `keyPrefix` + its key.
    ///
    /// - Precondition: every key (with the prefix) is a valid header name — letters,
    ///   digits and `-` — no two types share one, and none is the signature's
    ///   (`keyPrefix` + `signature`).
    public init(_ types: any PropagatableValue.Type..., keyPrefix: String = "ambient-") {
        self.init(types, keyPrefix: keyPrefix)
    }

    /// The types `types` travel, each in the field `keyPrefix` + its key.
    public init(_ types: [any PropagatableValue.Type], keyPrefix: String = "ambient-") {
        let signatureField = (keyPrefix + "signature").lowercased()
        let fieldNames = types.map { Self.fieldName(of: $0, keyPrefix: keyPrefix) }
        var seen: [String: String] = [signatureField: "the signature"]
        for (type, name) in zip(types, fieldNames) {
            // Checked as written: lowercasing could turn a non-ASCII letter (the Kelvin sign) into one.
            let key = keyPrefix + type.propagationKey
            precondition(
                !type.propagationKey.isEmpty && key.utf8.count <= 128 && key.utf8.allSatisfy(Self.isKeyByte),
                "PropagatedValues: \(type)'s field name \"\(key)\" is not a header name (up to 128 letters, digits and -)"
            )
            precondition(
                seen[name] == nil, "PropagatedValues: \(type) and \(seen[name] ?? "") both travel as \"\(name)\"")
            seen[name] = "\(type)"
        }
        storage = Storage(types: types, keyPrefix: keyPrefix, fieldNames: fieldNames, signatureField: signatureField)
    }

    /// The field name `type` travels under: ``keyPrefix`` + its key, lowercased (HTTP/2
    /// sends header names lowercased).
    public func key(for type: any PropagatableValue.Type) -> String {
        Self.fieldName(of: type, keyPrefix: keyPrefix)
    }

    private static func fieldName(of type: any PropagatableValue.Type, keyPrefix: String) -> String {
        (keyPrefix + type.propagationKey).lowercased()
    }

    /// `PropagatedValues(ambient-clock: Clock, …)`.
    public var description: String {
        "PropagatedValues(" + zip(fieldNames, types).map { "\($0): \($1)" }.joined(separator: ", ") + ")"
    }

    static func isKeyByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }
}
