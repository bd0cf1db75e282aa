// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientPropagation
import AmbientProviders
import Foundation
import Testing

/// The trust boundary without cryptography: who may set values (nobody, a vouched-for
/// sender), the W3C baggage carrier, the limits, and the reporter that keeps a flood of bad
/// fields out of the log. Signed carrying is in `AmbientBridgeTests/SignedCarryingTests`.
@Suite("Propagated values: the trust boundary")
struct PropagationTrustTests {
    let carried = PropagatedValues(Clock.self, Note.self)
    let forged = ["ambient-clock": "fixed:0.0", "ambient-note": "admin"]

    @Test func nobodysFieldsChangeNothingAndEachIsReported() {
        let (context, rejections) = carried.decodeSkippingInvalid(forged, trusting: .nobody)
        #expect(context.isEmpty)
        #expect(rejections.map(\.field) == ["ambient-clock", "ambient-note"])
        #expect(rejections.allSatisfy { $0.reason == .untrusted })
        #expect(
            rejections[0].description == #"ambient-clock ("fixed:0.0"): from a sender this receiver does not trust"#)
        #expect(throws: PropagationRejection.self) { try carried.decode(forged, trusting: .nobody) }
    }

    @Test func aRequestCarryingNothingIsNotReported() throws {
        let (context, rejections) = carried.decodeSkippingInvalid(["x-tenant": "free"], trusting: .nobody)
        #expect(context.isEmpty && rejections.isEmpty)
        #expect(try carried.decode([:], as: .baggage, trusting: .nobody).isEmpty)
        #expect(try carried.decode(["baggage": "other=1"], as: .baggage, trusting: .nobody).isEmpty)
    }

    @Test func aSenderThePredicateVouchesForIsTrustedAndOnlyThatOne() {
        let trust = PropagationTrust.senders { field in field("x-internal-hop") == "mesh" }
        let vouched = forged.merging(["x-internal-hop": "mesh"]) { $1 }
        let (context, rejections) = carried.decodeSkippingInvalid(vouched, trusting: trust)
        #expect(rejections.isEmpty)
        #expect(context[Note.self] == Note(text: "admin"))
        let (strangers, dropped) = carried.decodeSkippingInvalid(forged, trusting: trust)
        #expect(strangers.isEmpty)
        #expect(dropped.map(\.reason) == [.untrusted, .untrusted])
    }

    @Test func aSignatureFieldFromNobodyIsReportedToo() {
        let rejections = carried.decodeSkippingInvalid(
            ["ambient-signature": "v1:x:1:ambient-note:00"], trusting: .nobody
        )
        .rejections
        #expect(rejections.map(\.field) == ["ambient-signature"])
    }

    // MARK: Limits

    @Test func aFieldOverTheLimitIsDroppedWhole() {
        let long = String(repeating: "a", count: 4097)
        let (context, rejections) = carried.decodeSkippingInvalid(
            ["ambient-note": long, "ambient-clock": "fixed:1.0"], trusting: .anySender)
        #expect(context[Note.self] == nil)
        #expect(context[Clock.self] != nil, "the other field is unaffected")
        #expect(rejections.map(\.reason) == [.tooLarge(bytes: 4097, limit: 4096)])
        #expect(rejections[0].excerpt == String(repeating: "a", count: 64) + "...")
        var limits = PropagationLimits.default
        limits.maximumFieldBytes = 8
        #expect(
            carried.decodeSkippingInvalid(["ambient-note": "123456789"], trusting: .anySender, limits: limits)
                .rejections.map(\.reason) == [.tooLarge(bytes: 9, limit: 8)])
    }

    @Test func anExcerptIsShortAndPrintable() {
        let hostile = "\u{1B}[31mred\r\n" + String(repeating: "x", count: 10_000)
        let rejection = PropagationRejection(field: "ambient-note", reason: .invalidEscape, arrived: hostile)
        #expect(rejection.excerpt.utf8.count <= 67)
        #expect(rejection.excerpt.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F })
        #expect(rejection.excerpt.hasPrefix("?[31mred??xxx"))
    }

    // MARK: W3C baggage

    @Test func valuesRoundTripAsBaggageEntries() throws {
        let text = "a,b;c d=é"
        let header = withInjected(Note(text: text), Clock.fixed(Date(timeIntervalSinceReferenceDate: 5))) {
            carried.encode(.current, as: .baggage)
        }
        #expect(header == ["baggage": "ambient-clock=fixed:5.0,ambient-note=a%2Cb%3Bc%20d=%C3%A9"])
        let context = try carried.decode(header, as: .baggage, trusting: .anySender)
        #expect(context[Note.self] == Note(text: text))
        #expect(context.run { Clock.current.now } == Date(timeIntervalSinceReferenceDate: 5))
        #expect(carried.encode(InjectionContext(), as: .baggage).isEmpty, "no entries, no header")
    }

    @Test func otherEntriesWhiteSpacePropertiesAndReEscapingAreFine() throws {
        // As another language's propagator may forward it: its own entries, spaces around
        // separators, a property, and every character escaped.
        let header = "userId=alice , ambient-note = %61%2Cb ;owner=svc-b,,tenant=t1"
        let context = try carried.decode(["baggage": header], as: .baggage, trusting: .anySender)
        #expect(context[Note.self] == Note(text: "a,b"))
    }

    @Test(arguments: [
        ("ambient-note=x,ambient-note=y", PropagationRejection.Reason.duplicate),
        ("ambient-note", .malformedBaggage("an entry without '='")),
        ("=x", .malformedBaggage("an entry's key is not an HTTP token")),
        ("am bient=x", .malformedBaggage("an entry's key is not an HTTP token")),
        ("ambient-note=%ZZ", .invalidEscape),
        ("ambient-note=%C3", .invalidEscape),
        ("ambient-note=\"quoted\"", .invalidEscape),
    ])
    func malformedBaggageIsDroppedAndReported(header: String, reason: PropagationRejection.Reason) {
        let (context, rejections) = carried.decodeSkippingInvalid(
            ["baggage": header], as: .baggage, trusting: .anySender)
        #expect(context[Note.self] == nil)
        #expect(rejections.map(\.reason).contains(reason), "\(rejections)")
    }

    /// The header read as W3C Baggage's grammar reads it, by a model that splits strings:
    /// random headers of separators, spaces, keys and values decode as the model says.
    @Test func randomBaggageDecodesAsTheGrammarReadsIt() {
        let pieces = [",", ";", "=", " ", "\t", "a", "b", "%41", "ambient-note", "ambient-note=", "k=v"]
        var random = SplitMix(state: 2026)
        for _ in 0..<5_000 {
            let header = (0..<Int(random.next() % 12)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }
                .joined()
            let decoded = carried.decodeSkippingInvalid(["baggage": header], as: .baggage, trusting: .anySender)
            #expect(decoded.context[Note.self] == expectedNote(in: header), "\(header)")
        }
    }

    /// What the note in `header` is by the grammar: one `ambient-note` entry in a header
    /// whose every member is `token = value[;properties]`; its value unescaped, not empty.
    private func expectedNote(in header: String) -> Note? {
        func trimmed(_ text: Substring) -> Substring {
            text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
                .reduce(into: "") { $0.append($1) }[...]
        }
        let tchar = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-.^_`|~")
        var notes: [Substring] = []
        for member in header.split(separator: ",", omittingEmptySubsequences: false).map(trimmed)
        where !member.isEmpty {
            guard let equals = member.firstIndex(of: "=") else { return nil }
            let key = trimmed(member[..<equals])
            guard !key.isEmpty, key.allSatisfy(tchar.contains) else { return nil }
            let value = member[member.index(after: equals)...].prefix { $0 != ";" }
            if key == "ambient-note" { notes.append(trimmed(value)) }
        }
        // A value is baggage-octets (visible ASCII but `"`, `,`, `;`, `\`) and escapes.
        let octets = { (byte: UInt8) in byte > 0x20 && byte < 0x7F && !"\",;\\".utf8.contains(byte) }
        guard notes.count == 1, let value = notes.first, !value.isEmpty, value.utf8.allSatisfy(octets) else {
            return nil
        }
        return Note(text: value.replacingOccurrences(of: "%41", with: "A"))
    }

    @Test func hugeBaggageIsRefusedBeforeItIsRead() {
        let manyEntries = Array(repeating: "k=v", count: 181).joined(separator: ",") + ",ambient-note=x"
        let (context, rejections) = carried.decodeSkippingInvalid(
            ["baggage": manyEntries], as: .baggage, trusting: .anySender)
        #expect(context.isEmpty)
        #expect(rejections.map(\.reason) == [.tooManyEntries(count: 182, limit: 180)])

        let huge = "ambient-note=x," + String(repeating: ",", count: 1_000_000)
        let tooLong = carried.decodeSkippingInvalid(["baggage": huge], as: .baggage, trusting: .anySender)
        #expect(tooLong.context.isEmpty)
        #expect(tooLong.rejections.map(\.reason) == [.tooLarge(bytes: huge.utf8.count, limit: 8192)])
    }

    // MARK: Reporting

    @Test func aFloodIsReportedAFewTimesAWindowAndCounted() async throws {
        let reported = Locked<[PropagationRejection]>([])
        let reporter = RejectionReporter(maximumReports: 3, per: .milliseconds(200)) { rejection in
            reported.withLock { $0.append(rejection) }
        }
        let rejection = PropagationRejection(field: "ambient-note", reason: .untrusted, arrived: "x")
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { for _ in 0..<125 { reporter(rejection) } }
            }
        }
        #expect(reported.get().count == 3)
        #expect(reporter.suppressedCount == 997)
        try await Task.sleep(for: .milliseconds(250))
        reporter(rejection)
        #expect(reported.get().count == 4)
        #expect(reported.get().last?.suppressedBefore == 997, "the next window's first report says what was held back")
        #expect(reported.get().last?.description.hasSuffix("(997 earlier rejections not reported)") == true)
    }
}
