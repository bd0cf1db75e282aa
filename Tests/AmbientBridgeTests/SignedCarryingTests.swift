// SPDX-License-Identifier: Apache-2.0

#if SwiftCrypto
import Ambient
import Foundation
import Testing

/// A value a client must never set unsigned: the tests' stand-in for feature flags.
struct Plan: PropagatableValue, Equatable {
    var name: String
    static var defaultValue: Plan { Plan(name: "free") }
    static var propagationKey: String { "plan" }
    var propagationEncoding: String? { name }
    init(name: String) { self.name = name }
    init(propagationEncoding: String) throws { name = propagationEncoding }
}

/// A type only a newer sender carries.
struct Region: PropagatableValue, Equatable {
    var code: String
    static var defaultValue: Region { Region(code: "") }
    static var propagationKey: String { "region" }
    var propagationEncoding: String? { code }
    init(code: String) { self.code = code }
    init(propagationEncoding: String) throws { code = propagationEncoding }
}

/// Signed carrying (the SwiftCrypto trait): what a receiver trusting `.signed(by:)` applies,
/// and everything it drops — unsigned, forged, altered, expired, wrongly keyed.
@Suite("Propagated values: signed with HMAC-SHA256")
struct SignedCarryingTests {
    let carried = PropagatedValues(Clock.self, Plan.self)
    let key = try! PropagationSigningKey(id: "test", secret: Array(repeating: 7, count: 32))
    let otherSecret = try! PropagationSigningKey(id: "test", secret: Array(repeating: 8, count: 32))
    let nextKey = try! PropagationSigningKey(id: "next", secret: Array(repeating: 9, count: 32))
    let noon = Date(timeIntervalSinceReferenceDate: 43_200)

    var trust: PropagationTrust { .signed(by: [key]) }

    func signed(
        with key: PropagationSigningKey? = nil, as format: PropagationFormat = .fields,
        lifetime: Duration = .seconds(60),
        now: @escaping @Sendable () -> Date = { Date() }
    ) -> [String: String] {
        let signer = PropagationSigner.hmacSHA256(key ?? self.key, lifetime: lifetime, now: now)
        return withInjected(Clock.fixed(noon), Plan(name: "enterprise")) {
            carried.encode(.current, as: format, signingWith: signer)
        }
    }

    func expectApplied(
        _ fields: [String: String], as format: PropagationFormat = .fields, trust: PropagationTrust? = nil
    )
        throws
    {
        let context = try carried.decode(fields, as: format, trusting: trust ?? self.trust)
        #expect(context[Plan.self] == Plan(name: "enterprise"))
        #expect(context.run { Clock.current.now } == noon)
    }

    func expectDropped(
        _ fields: [String: String], as format: PropagationFormat = .fields, trust: PropagationTrust? = nil,
        because reason: PropagationRejection.Reason, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let (context, rejections) = carried.decodeSkippingInvalid(fields, as: format, trusting: trust ?? self.trust)
        #expect(context.isEmpty, "nothing applied", sourceLocation: sourceLocation)
        #expect(
            !rejections.isEmpty && rejections.allSatisfy { $0.reason == reason }, "\(rejections)",
            sourceLocation: sourceLocation)
    }

    @Test func signedFieldsAreApplied() throws {
        let fields = signed()
        #expect(fields["ambient-plan"] == "enterprise")
        let signature = try #require(fields["ambient-signature"])
        #expect(signature.hasPrefix("v1:test:"))
        #expect(signature.contains(":ambient-clock/ambient-plan:"))
        try expectApplied(fields)
    }

    @Test func signedBaggageIsApplied() throws {
        let header = signed(as: .baggage)
        #expect(header.keys.sorted() == ["baggage"])
        try expectApplied(header, as: .baggage)
    }

    @Test func unsignedFieldsAreDropped() {
        expectDropped(["ambient-plan": "enterprise", "ambient-clock": "fixed:0.0"], because: .unsigned)
    }

    @Test func anAlteredValueDropsEverySignedField() {
        var fields = signed()
        fields["ambient-plan"] = "enterprise2"
        expectDropped(fields, because: .signatureMismatch)
    }

    @Test func aRemovedFieldBreaksTheSignature() {
        var fields = signed()
        fields["ambient-clock"] = nil
        expectDropped(fields, because: .signatureMismatch)
    }

    @Test func aFieldAddedBesideTheSignedOnesIsDroppedAlone() throws {
        let carried = PropagatedValues(Clock.self, Plan.self, Note.self)
        let signer = PropagationSigner.hmacSHA256(key)
        var fields = withInjected(Clock.fixed(noon)) { carried.encode(.current, signingWith: signer) }
        fields["ambient-plan"] = "enterprise"
        let (context, rejections) = carried.decodeSkippingInvalid(fields, trusting: trust)
        #expect(context.run { Clock.current.now } == noon)
        #expect(context[Plan.self] == nil)
        #expect(rejections.map(\.field) == ["ambient-plan"])
        #expect(rejections.map(\.reason) == [.unsigned])
    }

    @Test func anotherSecretUnderTheSameIdIsAForgery() {
        expectDropped(signed(with: otherSecret), because: .signatureMismatch)
    }

    @Test func aKeyTheReceiverDoesNotHoldIsReportedByItsId() {
        expectDropped(signed(with: nextKey), because: .unknownKey(id: "next"))
    }

    @Test func keysRotate() throws {
        // During rotation the receiver accepts both; senders move to the new key.
        let both = PropagationTrust.signed(by: [nextKey, key])
        try expectApplied(signed(with: key), trust: both)
        try expectApplied(signed(with: nextKey), trust: both)
        // Afterwards the old key is retired.
        expectDropped(signed(with: key), trust: .signed(by: [nextKey]), because: .unknownKey(id: "test"))
    }

    @Test func anExpiredSignatureIsDropped() {
        let twoMinutesAgo = Date().addingTimeInterval(-120)
        let fields = signed(now: { twoMinutesAgo })
        let expiry = Date(timeIntervalSince1970: (twoMinutesAgo.timeIntervalSince1970 + 60).rounded(.up))
        expectDropped(fields, because: .expired(at: expiry))
    }

    @Test func theReceiversOwnClockDecidesExpiryWhenGiven() throws {
        let signedAt = Date()
        let fields = signed(now: { signedAt })  // valid for 60 s from now
        try expectApplied(fields, trust: .signed(by: [key], now: { signedAt }))
        let anHourLater = signedAt.addingTimeInterval(3_600)
        let expiry = Date(timeIntervalSince1970: (signedAt.timeIntervalSince1970 + 60).rounded(.up))
        expectDropped(fields, trust: .signed(by: [key], now: { anHourLater }), because: .expired(at: expiry))
        // Given none, the system's: the same signature is applied.
        try expectApplied(fields, trust: .signed(by: [key], now: nil))
    }

    @Test func anExpiryWithLeadingZerosReadsAsItsNumber() throws {
        // The message holds the expiry's canonical digits, copied from a signature that
        // has them and written out for one that does not: both cover the same bytes.
        var fields = signed()
        var parts = try #require(fields["ambient-signature"]).split(separator: ":", omittingEmptySubsequences: false)
        parts[2] = "00" + parts[2]
        fields["ambient-signature"] = parts.joined(separator: ":")
        try expectApplied(fields)
    }

    @Test func theReceiverAllowsLeewayForClockSkew() throws {
        let threeSecondsAgo = Date().addingTimeInterval(-3)
        let fields = signed(lifetime: .seconds(1), now: { threeSecondsAgo })
        try expectApplied(fields)  // expired about 2 s ago: within the default 5 s leeway
        let expiry = Date(timeIntervalSince1970: (threeSecondsAgo.timeIntervalSince1970 + 1).rounded(.up))
        expectDropped(fields, trust: .signed(by: [key], leeway: .zero), because: .expired(at: expiry))
    }

    @Test func aSignatureValidForLongerThanTheReceiverAllowsIsDropped() throws {
        let fields = signed(lifetime: .seconds(86_400))
        let reason = try #require(carried.decodeSkippingInvalid(fields, trusting: trust).rejections.first?.reason)
        guard case .lifetimeTooLong = reason else {
            Issue.record("expected lifetimeTooLong, got \(reason)")
            return
        }
        try expectApplied(fields, trust: .signed(by: [key], maximumLifetime: .seconds(90_000)))
    }

    @Test func theSignatureCoversDecodedValuesSoReEscapingKeepsIt() throws {
        var header = signed(as: .baggage)
        // A hop in another language that decodes and re-encodes every value more eagerly.
        header["baggage"] = header["baggage"]!.replacingOccurrences(of: "enterprise", with: "%65nterpris%65")
        try expectApplied(header, as: .baggage)
        // One that alters a value breaks it.
        var altered = signed(as: .baggage)
        altered["baggage"] = altered["baggage"]!.replacingOccurrences(of: "enterprise", with: "enterprisf")
        expectDropped(altered, as: .baggage, because: .signatureMismatch)
    }

    @Test(arguments: [
        "v2:test:1:ambient-plan:" + String(repeating: "0", count: 64),
        "v1:test:1:ambient-plan",
        "v1::1:ambient-plan:" + String(repeating: "0", count: 64),
        "v1:test:-1:ambient-plan:" + String(repeating: "0", count: 64),
        "v1:test:99999999999999:ambient-plan:" + String(repeating: "0", count: 64),
        "v1:test:1::" + String(repeating: "0", count: 64),
        "v1:test:1:" + String(repeating: "0", count: 64),  // four parts, the code right after the expiry (fuzzer)
        "v1:test:1:ambient-plan/ambient-plan:" + String(repeating: "0", count: 64),
        "v1:test:1:AMBIENT-PLAN:" + String(repeating: "0", count: 64),
        "v1:test:1:ambient-plan:" + String(repeating: "0", count: 63),
        "v1:test:1:ambient-plan:" + String(repeating: "A", count: 64),
        "v1:test:1:" + Array(repeating: "f", count: 65).joined(separator: "/") + ":"
            + String(repeating: "0", count: 64),
        "v1%20:test",
    ])
    func aMalformedSignatureDropsTheFields(signature: String) throws {
        let (context, rejections) = carried.decodeSkippingInvalid(
            ["ambient-plan": "enterprise", "ambient-signature": signature], trusting: trust)
        #expect(context.isEmpty)
        let reason = try #require(rejections.first?.reason)
        guard case .malformedSignature = reason else {
            Issue.record("expected malformedSignature, got \(reason)")
            return
        }
    }

    /// What each malformed signature is reported as: the first failing check, read over the
    /// whole field; with other than five parts, the count of parts.
    @Test(arguments: [
        ("v2:test:1:ambient-plan:" + String(repeating: "0", count: 64), "unknown version (this receiver reads v1)"),
        ("v2:x", "expected 5 parts separated by ':', found 2"),
        ("v1:test:1", "expected 5 parts separated by ':', found 3"),
        ("v1:te.t:1:ambient-plan:" + String(repeating: "0", count: 64), "invalid key id"),
        ("v1:test:1x:ambient-plan:" + String(repeating: "0", count: 64), "the expiry is not 1 to 12 decimal digits"),
        ("v1:test:1:ambient-plan:abc", "the code is not 64 hex digits"),
        ("v1:test:1:ambient-plan/ambient-plan:" + String(repeating: "0", count: 64), "lists ambient-plan twice"),
        (
            "v1:test:1:Ambient-Plan:" + String(repeating: "0", count: 64),
            "a listed field name is not 1 to 128 of a-z, 0-9 and -"
        ),
        ("v1:test:1:ambient-plan:" + String(repeating: "A", count: 64), "the code is not 64 lowercase hex digits"),
        (
            "v1:test:1:" + (0...64).map { "n\($0)" }.joined(separator: "/") + ":"
                + String(repeating: "0", count: 64),
            "lists more than 64 fields"
        ),
    ])
    func aMalformedSignatureIsReportedForWhatIsWrongWithIt(signature: String, problem: String) throws {
        let (_, rejections) = carried.decodeSkippingInvalid(
            ["ambient-plan": "enterprise", "ambient-signature": signature], trusting: trust)
        let reason = try #require(rejections.first?.reason)
        guard case .malformedSignature(let reported) = reason else {
            Issue.record("expected malformedSignature, got \(reason)")
            return
        }
        #expect(reported == problem)
    }

    @Test(arguments: [PropagationFormat.fields, .baggage])
    func aNewerSendersFieldIsCoveredThoughTheReceiverDoesNotKnowIt(format: PropagationFormat) throws {
        // The sender carries a third type the receiver has not listed (yet): its field is in
        // the code, so the receiver must find it to check the other two, and altering or
        // dropping it on the way breaks the signature for all.
        let newer = PropagatedValues(Clock.self, Plan.self, Region.self)
        let signer = PropagationSigner.hmacSHA256(key)
        let fields = withInjected(Clock.fixed(noon), Plan(name: "enterprise"), Region(code: "nz/akl")) {
            newer.encode(.current, as: format, signingWith: signer)
        }
        try expectApplied(fields, as: format)
        var altered = fields
        var removed = fields
        switch format {
        case .fields:
            altered["ambient-region"] = "au%2Fsyd"
            removed["ambient-region"] = nil
        case .baggage:
            altered["baggage"] = fields["baggage"]!.replacingOccurrences(of: "nz/akl", with: "au/syd")
            removed["baggage"] = fields["baggage"]!.split(separator: ",").filter { !$0.hasPrefix("ambient-region=") }
                .joined(separator: ",")
        }
        #expect(altered != fields && removed != fields)
        expectDropped(altered, as: format, because: .signatureMismatch)
        expectDropped(removed, as: format, because: .signatureMismatch)
    }

    @Test func twoSignaturesAreADuplicate() {
        var header = signed(as: .baggage)
        let signature = header["baggage"]!.split(separator: ",").last!
        header["baggage"]! += ",\(signature)"
        let (context, rejections) = carried.decodeSkippingInvalid(header, as: .baggage, trusting: trust)
        #expect(context.isEmpty)
        #expect(rejections.map(\.reason).contains(.duplicate))
    }

    @Test func keysAreCheckedAndNeverPrinted() throws {
        #expect(throws: PropagationSigningKey.Invalid.secretTooShort(bytes: 16, minimum: 32)) {
            try PropagationSigningKey(id: "short", secret: Array(repeating: 1, count: 16))
        }
        #expect(throws: PropagationSigningKey.Invalid.invalidID("a:b")) {
            try PropagationSigningKey(id: "a:b", secret: Array(repeating: 1, count: 32))
        }
        #expect(throws: PropagationSigningKey.Invalid.invalidID("")) {
            try PropagationSigningKey(id: "", secret: Array(repeating: 1, count: 32))
        }
        #expect(throws: PropagationSigningKey.Invalid.notBase64) {
            try PropagationSigningKey(id: "k", base64: "not base64!")
        }
        let fromBase64 = try PropagationSigningKey(
            id: "k", base64: " \(Data(repeating: 7, count: 32).base64EncodedString())\n")
        #expect("\(fromBase64)" == "PropagationSigningKey(id: k, 32 bytes)")
        let rejections = carried.decodeSkippingInvalid(signed(with: otherSecret), trusting: trust).rejections
        #expect(!rejections.map(\.description).joined().contains("0707"))
    }

    @Test func twoHundredConcurrentRequestsEachVerifyTheirOwn() async {
        let signer = PropagationSigner.hmacSHA256(key)
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for id in 0..<200 {
                group.addTask { [carried, trust] in
                    let date = Date(timeIntervalSinceReferenceDate: Double(id))
                    var fields = withInjected(Clock.fixed(date), Plan(name: "p\(id)")) {
                        carried.encode(.current, signingWith: signer)
                    }
                    if id.isMultiple(of: 3) { fields["ambient-plan"] = "forged" }
                    let (context, _) = carried.decodeSkippingInvalid(fields, trusting: trust)
                    let expected = id.isMultiple(of: 3) ? nil : Plan(name: "p\(id)")
                    return context[Plan.self] == expected ? 0 : 1
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }
}

/// A second propagatable type, for a sender that carries more than the receiver knows.
struct Note: PropagatableValue, Equatable {
    var text: String
    static var defaultValue: Note { Note(text: "") }
    static var propagationKey: String { "note" }
    var propagationEncoding: String? { text }
    init(text: String) { self.text = text }
    init(propagationEncoding: String) throws { text = propagationEncoding }
}
#endif
