// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientPropagation
import AmbientProviders
import AmbientTestClock
import Foundation
import Testing

/// A propagatable value whose encoding is its text as is: exercises the escaping.
struct Note: PropagatableValue, Equatable {
    var text: String
    static var defaultValue: Note { Note(text: "default") }
    static var propagationKey: String { "Note" }
    var propagationEncoding: String? { text }
    init(text: String) { self.text = text }
    init(propagationEncoding: String) throws {
        guard !propagationEncoding.isEmpty else { throw EmptyNote() }
        text = propagationEncoding
    }

    struct EmptyNote: Error, CustomStringConvertible {
        var description: String { "a note is never empty" }
    }
}

/// A carrier key that is not ASCII but lowercases to ASCII ("\u{212A}" is the Kelvin sign).
struct KelvinNote: PropagatableValue {
    static var defaultValue: KelvinNote { KelvinNote() }
    static var propagationKey: String { "\u{212A}elvin" }
    var propagationEncoding: String? { nil }
    init() {}
    init(propagationEncoding: String) throws {}
}

@Suite("PropagatedValues: ambient values as strings")
struct PropagatedValuesTests {
    let carried = PropagatedValues(Clock.self, Note.self)

    @Test func onlyInjectedValuesTravelAndTheLiveClockStaysBehind() {
        #expect(carried.encode(InjectionContext()).isEmpty)
        #expect(carried.encode(InjectionContext().injecting(Clock.live)).isEmpty)
        let fields = withInjected(Note(text: "hi"), Tag("not carried")) { carried.encode(.current) }
        #expect(fields == ["ambient-note": "hi"])
        #expect(carried.key(for: Note.self) == "ambient-note")
        #expect("\(carried)" == "PropagatedValues(ambient-clock: Clock, ambient-note: Note)")
    }

    @Test func aFixedClockArrivesBitForBit() throws {
        for seconds in [0, 0.1 + 0.2, -1e-300, 7.5e8 + 1 / 3, Double.greatestFiniteMagnitude] {
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            let fields = carried.encode(InjectionContext().injecting(Clock.fixed(date)))
            let context = try carried.decode(fields, trusting: .anySender)
            #expect(context.run { Clock.current.now } == date)
        }
    }

    @Test func aTestClockArrivesFrozenAtItsCurrentTime() async throws {
        let testClock = TestClock(start: Date(timeIntervalSinceReferenceDate: 100))
        await testClock.advance(by: .seconds(5))
        let fields = carried.encode(InjectionContext().injecting(testClock.clock))
        #expect(fields == ["ambient-clock": "fixed:105.0"])
        let arrived = try carried.decode(fields, trusting: .anySender)
        await testClock.advance(by: .seconds(5))
        #expect(arrived.run { Clock.current.now } == Date(timeIntervalSinceReferenceDate: 105))
    }

    @Test(arguments: [
        "plain", "with space", "new\nline", "per%cent", "%41", "ünïcødé ✓", "\"quoted\"", "a:b@c/d+e=f,g;h",
        "x=1,y=2;p", " lead",
        String(repeating: "🦆", count: 100),
    ])
    func anyTextRoundTripsAsAValidHeaderValue(text: String) throws {
        let fields = carried.encode(InjectionContext().injecting(Note(text: text)))
        let field = try #require(fields["ambient-note"])
        #expect(field.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "visible ASCII only: \(field)")
        #expect(!field.contains(",") && !field.contains(";"), "a valid baggage value: \(field)")
        #expect(try carried.decode(fields, trusting: .anySender)[Note.self] == Note(text: text))
    }

    @Test func randomTextRoundTrips() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let scalars = (0..<Int.random(in: 0...12, using: &generator)).compactMap { _ in
                Unicode.Scalar(UInt32.random(in: 1...0x2FFF, using: &generator))
            }
            let text = "x" + String(String.UnicodeScalarView(scalars))
            let fields = carried.encode(InjectionContext().injecting(Note(text: text)))
            #expect(try carried.decode(fields, trusting: .anySender)[Note.self]?.text == text)
        }
    }

    @Test func aBadFieldIsATypedErrorNamingTheFieldTheTypeAndTheReason() {
        #expect(
            throws: PropagationRejection(
                field: "ambient-clock",
                reason: .undecodable(
                    typeName: "Clock", message: "expected fixed:<seconds since 2001>, such as fixed:0.0"),
                arrived: "noon")
        ) {
            try carried.decode(["ambient-clock": "noon", "ambient-note": "fine"], trusting: .anySender)
        }
        for bad in ["fixed:", "fixed:abc", "fixed:inf", "fixed:nan", "live", ""] {
            #expect(throws: PropagationRejection.self) {
                try carried.decode(["ambient-clock": bad], trusting: .anySender)
            }
        }
        do {
            _ = try carried.decode(["ambient-note": "%E2%28%A1"], trusting: .anySender)  // not UTF-8
            Issue.record("expected an error")
        } catch {
            #expect(error.field == "ambient-note")
            #expect(error.reason == .invalidEscape)
            #expect(
                error.description
                    == #"ambient-note ("%E2%28%A1"): invalid text (a character outside the carried alphabet, "#
                    + "a % not followed by two hex digits, or not UTF-8)")
        }
        for bad in ["%", "%4", "%G1", "ok%", "with space", "tab\t", "quote\"", "back\\slash", "semi;colon", "ünï"] {
            #expect(throws: PropagationRejection(field: "ambient-note", reason: .invalidEscape, arrived: bad)) {
                try carried.decode(["ambient-note": bad], trusting: .anySender)
            }
        }
        #expect(throws: PropagationRejection.self) { try carried.decode(["ambient-note": ""], trusting: .anySender) }
    }

    @Test func aHeaderRepeatedAndJoinedWithACommaIsADuplicateNeverAGuess() {
        // Two `ambient-note` headers reach a server as one value joined by ", ".
        let rejection = carried.decodeSkippingInvalid(["ambient-note": "first,second"], trusting: .anySender)
            .rejections
        #expect(rejection.map(\.reason) == [.duplicate])
    }

    @Test func skippingKeepsTheFieldsThatDecodeAndReportsTheRest() {
        let (context, rejections) = carried.decodeSkippingInvalid(
            ["ambient-clock": "noon", "ambient-note": "kept"], trusting: .anySender)
        #expect(context[Note.self] == Note(text: "kept"))
        #expect(context[Clock.self] == nil)
        #expect(rejections.map(\.field) == ["ambient-clock"])
    }

    @Test func decodedValuesGoOnTopOfTheReceiversOwn() throws {
        let arrived = try carried.decode(["ambient-note": "from%20the%20test"], trusting: .anySender)
        withInjected(Note(text: "server's"), Tag("server's")) {
            InjectionContext.current.injecting(contentsOf: arrived).run {
                #expect(Note.current.text == "from the test")
                #expect(Tag.current == Tag("server's"))
            }
        }
    }

    /// A dictionary of a few fields is read in one pass over its names; one of many is
    /// looked up name by name. Both read exactly what `fields[name]` reads.
    @Test(arguments: [0, 5, 200])
    func aDictionaryIsReadAsItsLookupsWouldReadIt(others: Int) throws {
        var fields = carried.encode(
            InjectionContext().injecting(Clock.fixed(Date(timeIntervalSinceReferenceDate: 7)), Note(text: "n")))
        // Names a pass must not take for a listed one: the same length, another case, a
        // longer one that starts alike.
        fields["ambient-clocx"] = "fixed:1.0"
        fields["Ambient-Note"] = "not me"
        fields["ambient-note-2"] = "nor me"
        for index in 0..<others { fields["x-other-\(index)"] = "\(index)" }
        let context = try carried.decode(fields, trusting: .anySender)
        #expect(context.run { Clock.current.now } == Date(timeIntervalSinceReferenceDate: 7))
        #expect(context[Note.self] == Note(text: "n"))
        #expect(
            carried.decodeSkippingInvalid(["ambient-clocx": "1", "Ambient-Note": "x"], trusting: .anySender)
                .context.isEmpty)
    }

    /// The one pass hands each field it found to the decode once (taken from its table, not
    /// copied): whichever of the fields arrive, long or short, within the limit or past it,
    /// the result is what the lookup path makes of the same request.
    @Test func everySubsetOfFieldsIsReadAsItsLookupsWouldReadIt() {
        let limits = PropagationLimits(maximumFieldBytes: 40)
        let candidates: [[String: String]] = [
            ["ambient-clock": "fixed:7.0"], ["ambient-clock": "noon"],
            ["ambient-note": "n"], ["ambient-note": String(repeating: "long ", count: 6)],
            ["ambient-note": String(repeating: "x", count: 41)],
            ["ambient-signature": "v1:k:1:ambient-note:" + String(repeating: "0", count: 64)],
        ]
        func describe(_ decoded: (context: InjectionContext, rejections: [PropagationRejection])) -> String {
            let clock = decoded.context[Clock.self].map { _ in decoded.context.run { "\(Clock.current.now)" } }
            return "\(clock ?? "-") \(decoded.context[Note.self]?.text ?? "-") \(decoded.rejections)"
        }
        for mask in 0..<(1 << candidates.count) {
            var fields = ["host": "example.com", "user-agent": String(repeating: "agent ", count: 4)]
            for (bit, candidate) in candidates.enumerated() where mask & (1 << bit) != 0 {
                fields.merge(candidate) { _, new in new }
            }
            for trust in [PropagationTrust.anySender, .nobody] {
                let onePass = carried.decodeSkippingInvalid(fields, trusting: trust, limits: limits)
                let lookups = carried.decodeSkippingInvalid(trusting: trust, limits: limits) { fields[$0] }
                #expect(describe(onePass) == describe(lookups), "\(fields)")
            }
        }
    }

    @Test(arguments: ["", "X-Corp-"])
    func anyPrefixIsReadAsItsLookupsWouldReadIt(prefix: String) throws {
        let carried = PropagatedValues(Clock.self, Note.self, keyPrefix: prefix)
        let fields = carried.encode(InjectionContext().injecting(Note(text: "n")))
        #expect(fields == ["\(prefix.lowercased())note": "n"])
        #expect(try carried.decode(fields, trusting: .anySender)[Note.self] == Note(text: "n"))
        let unsigned = carried.decodeSkippingInvalid(fields, trusting: .nobody)
        #expect(unsigned.rejections.map(\.field) == ["\(prefix.lowercased())note"])
    }

    @Test func fieldNamesMustBeHeaderNames() async {
        await #expect(processExitsWith: .failure) {
            _ = PropagatedValues(Note.self, keyPrefix: "bad prefix ")
        }
        await #expect(processExitsWith: .failure) {
            _ = PropagatedValues(Note.self, Note.self)
        }
        // Checked as written, not lowercased: the Kelvin sign lowercases to an ASCII "k".
        await #expect(processExitsWith: .failure) {
            _ = PropagatedValues(KelvinNote.self)
        }
    }
}
