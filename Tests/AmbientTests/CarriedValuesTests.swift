import Ambient
import Foundation
import Testing

/// A carriable value whose encoding is its text as is: exercises the escaping.
struct Note: CarriableValue, Equatable {
    var text: String
    static var defaultValue: Note { Note(text: "default") }
    static var carrierKey: String { "Note" }
    var carrierEncoding: String? { text }
    init(text: String) { self.text = text }
    init(carrierEncoding: String) throws {
        guard !carrierEncoding.isEmpty else { throw EmptyNote() }
        text = carrierEncoding
    }

    struct EmptyNote: Error, CustomStringConvertible {
        var description: String { "a note is never empty" }
    }
}

@Suite("CarriedValues: ambient values as strings")
struct CarriedValuesTests {
    let carried = CarriedValues(Clock.self, Note.self)

    @Test func onlyInjectedValuesTravelAndTheLiveClockStaysBehind() {
        #expect(carried.encode(InjectionContext()).isEmpty)
        #expect(carried.encode(InjectionContext().injecting(Clock.live)).isEmpty)
        let fields = withInjected(Note(text: "hi"), Tag("not carried")) { carried.encode(.current) }
        #expect(fields == ["ambient-note": "hi"])
        #expect(carried.key(for: Note.self) == "ambient-note")
        #expect("\(carried)" == "CarriedValues(ambient-clock: Clock, ambient-note: Note)")
    }

    @Test func aFixedClockArrivesBitForBit() throws {
        for seconds in [0, 0.1 + 0.2, -1e-300, 7.5e8 + 1 / 3, Double.greatestFiniteMagnitude] {
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            let fields = carried.encode(InjectionContext().injecting(Clock.fixed(date)))
            let context = try carried.decode(fields)
            #expect(context.run { Clock.current.now } == date)
        }
    }

    @Test func aTestClockArrivesFrozenAtItsCurrentTime() async throws {
        let testClock = TestClock(start: Date(timeIntervalSinceReferenceDate: 100))
        await testClock.advance(by: .seconds(5))
        let fields = carried.encode(InjectionContext().injecting(testClock.clock))
        #expect(fields == ["ambient-clock": "fixed:105.0"])
        let arrived = try carried.decode(fields)
        await testClock.advance(by: .seconds(5))
        #expect(arrived.run { Clock.current.now } == Date(timeIntervalSinceReferenceDate: 105))
    }

    @Test(arguments: [
        "plain", "with space", "new\nline", "per%cent", "%41", "ünïcødé ✓", "\"quoted\"", "a:b@c/d+e=f,g;h",
        String(repeating: "🦆", count: 100),
    ])
    func anyTextRoundTripsAsAValidHeaderValue(text: String) throws {
        let fields = carried.encode(InjectionContext().injecting(Note(text: text)))
        let field = try #require(fields["ambient-note"])
        #expect(field.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "visible ASCII only: \(field)")
        #expect(try carried.decode(fields)[Note.self] == Note(text: text))
    }

    @Test func randomTextRoundTrips() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let scalars = (0..<Int.random(in: 0...12, using: &generator)).compactMap { _ in
                Unicode.Scalar(UInt32.random(in: 1...0x2FFF, using: &generator))
            }
            let text = "x" + String(String.UnicodeScalarView(scalars))
            let fields = carried.encode(InjectionContext().injecting(Note(text: text)))
            #expect(try carried.decode(fields)[Note.self]?.text == text)
        }
    }

    @Test func aBadFieldIsATypedErrorNamingTheFieldTheTypeAndTheReason() {
        #expect(
            throws: CarriedValueDecodingError(
                key: "ambient-clock", encoded: "noon", typeName: "Clock",
                reason: "expected fixed:<seconds since 2001>, such as fixed:0.0")
        ) {
            try carried.decode(["ambient-clock": "noon", "ambient-note": "fine"])
        }
        for bad in ["fixed:", "fixed:abc", "fixed:inf", "fixed:nan", "live", ""] {
            #expect(throws: CarriedValueDecodingError.self) { try carried.decode(["ambient-clock": bad]) }
        }
        do {
            _ = try carried.decode(["ambient-note": "%E2%28%A1"])  // not UTF-8
            Issue.record("expected an error")
        } catch {
            #expect(error.key == "ambient-note")
            #expect(error.reason.contains("percent-escape"))
            #expect(
                error.description
                    == #"ambient-note: "%E2%28%A1" does not decode as Note: "#
                    + "invalid percent-escape (a % not followed by two hex digits, or not UTF-8)")
        }
        for bad in ["%", "%4", "%G1", "ok%"] {
            #expect(throws: CarriedValueDecodingError.self) { try carried.decode(["ambient-note": bad]) }
        }
        #expect(throws: CarriedValueDecodingError.self) { try carried.decode(["ambient-note": ""]) }
    }

    @Test func skippingKeepsTheFieldsThatDecodeAndReportsTheRest() {
        let (context, errors) = carried.decodeSkippingInvalid(["ambient-clock": "noon", "ambient-note": "kept"])
        #expect(context[Note.self] == Note(text: "kept"))
        #expect(context[Clock.self] == nil)
        #expect(errors.map(\.key) == ["ambient-clock"])
    }

    @Test func decodedValuesGoOnTopOfTheReceiversOwn() throws {
        let arrived = try carried.decode(["ambient-note": "from the test"])
        withInjected(Note(text: "server's"), Tag("server's")) {
            InjectionContext.current.injecting(contentsOf: arrived).run {
                #expect(Note.current.text == "from the test")
                #expect(Tag.current == Tag("server's"))
            }
        }
    }

    @Test func fieldNamesMustBeHeaderNames() async {
        await #expect(processExitsWith: .failure) {
            _ = CarriedValues(Note.self, keyPrefix: "bad prefix ")
        }
        await #expect(processExitsWith: .failure) {
            _ = CarriedValues(Note.self, Note.self)
        }
    }
}
