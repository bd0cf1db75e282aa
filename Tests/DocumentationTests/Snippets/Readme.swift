// SPDX-License-Identifier: Apache-2.0

// The README's swift blocks, verbatim and in order, compiled and run as tests.
// DocumentedSnippetTests fails if README.md and this file drift apart; the declarations the
// blocks lean on (RemoteConfig, noon, PaymentGateway, …) are in ReadmeSupport.swift.
// swift-format-ignore-file: OrderedImports
// (the README's own imports sit where the README shows them)
import Dispatch
import Foundation

import Ambient
import Testing

// Production code: one word changed (was `UserDefaults.standard`).
func makeWidget() -> String {
    (Defaults.current.string(forKey: "defaultColour") ?? "") + "Widget"
}

// A test: scoped, nested, parallel-safe, restored on exit.
@Test func widgetUsesTheDefaultColour() {
    withInjected(Defaults.inMemory(["defaultColour": "Red"])) {
        #expect(makeWidget() == "RedWidget")
    }
}

struct FeatureFlags: AmbientValue {
    var newCheckout: Bool
    static var defaultValue: FeatureFlags { FeatureFlags(newCheckout: RemoteConfig.shared.newCheckout) }
}

func checkoutTitle() -> String { FeatureFlags.current.newCheckout ? "Pay now" : "Checkout" }

@Test func newCheckoutSaysPayNow() {
    withInjected(FeatureFlags(newCheckout: true), Clock.fixed(noon), Logger.capturing()) {
        #expect(checkoutTitle() == "Pay now")  // many values, one scope
    }
}

func isOverdue(_ due: Date) -> Bool { due < Clock.current.now }

func pollSlowly() async throws -> Duration {
    let start = Clock.current.instant  // monotonic, for measuring
    try await Clock.current.sleep(for: .seconds(30))  // honours cancellation
    return start.duration(to: Clock.current.instant)
}

@Test func theReminderFiresAfterAMinute() async throws {
    let testClock = TestClock()
    let reminder = Task { try await withInjected(testClock.clock) { try await waitForNextReminder() } }
    try await testClock.waitForSleepers()  // until the reminder is asleep
    await testClock.advance(by: .seconds(60))  // it wakes now, not in a minute
    #expect(try await reminder.value == testClock.start.addingTimeInterval(60))
}

enum Theme: String, DefaultsValue { case light, dark }

extension Defaults.Key<Int> {
    static var currentReminderId: Self { Self("currentReminderId", default: 0) }
}
extension Defaults.Key<Theme> {
    static var theme: Self { Self("theme", default: .light) }
}
extension Defaults.Key<String> {
    static var defaultColour: Self { Self("defaultColour", default: "") }
}

func nextReminderId() -> Int {
    Defaults.current.update(.currentReminderId) { $0 + 1 }  // atomic read-modify-write
}

func useDarkMode() {
    Defaults.current[.theme] = .dark  // typed keys: RawRepresentable, Codable, …
}

func watchColour(redraw: (String) -> Void) async {
    for await colour in Defaults.current.changes(for: .defaultColour) { redraw(colour) }
}

@Test func widgetsDoNotWriteDefaults() {
    let defaults = Defaults.inMemory(["defaultColour": "Red"])  // the test fake
    withInjected(defaults) { _ = makeWidget() }
    #expect(defaults.snapshot == ["defaultColour": "Red"])
}

func sync(_ items: [String]) {
    Logger.current.info("sync started", metadata: ["items": "\(items.count)"])  // built only if enabled
}

func handle(request id: String) {
    withInjected(Logger.current.with(metadata: ["request": id])) { sync(["a", "b"]) }  // context for everything inside
}

@Test func syncLogsItsStart() {
    let log = Logger.capturing()
    withInjected(log) { sync(["a"]) }
    #expect(log.captured.map(\.message) == ["sync started"])
}

func newRecordID() -> UUID { UUIDGenerator.current() }  // live: UUID()

func rollDie() -> Int {
    var random = RandomSource.current  // a RandomNumberGenerator
    return Int.random(in: 1...6, using: &random)
}

@Test func idsAndRollsAreReproducible() {
    withInjected(UUIDGenerator.incrementing, RandomSource.seeded(42)) {  // SplitMix64: the same everywhere
        #expect(newRecordID().uuidString == "00000000-0000-0000-0000-000000000000")
        #expect(newRecordID().uuidString == "00000000-0000-0000-0000-000000000001")
        #expect((1...6).contains(rollDie()))
    }
}

import AmbientTesting

@Suite(.injecting(Defaults.inMemory(["defaultColour": "Red"])))
struct WidgetTests {
    @Test(.injecting(Clock.fixed(noon), Logger.capturing()))
    func redAtNoon() { #expect(makeWidget() == "RedWidget") }
}

@Suite(.injecting(Defaults.inMemory(), Logger.capturing()))
struct ReminderIdTests {
    @Test func idsStartAtOne() { #expect(nextReminderId() == 1) }
    @Test func soDoTheyHere() { #expect(nextReminderId() == 1) }  // a fresh store per test
}

import XCTest

final class WidgetTestCase: InjectingTestCase {
    override var injections: InjectionContext {
        InjectionContext().injecting(Defaults.inMemory(["defaultColour": "Red"]), Clock.fixed(noon))
    }
    func testRed() { XCTAssertEqual(makeWidget(), "RedWidget") }
}

@Suite(.strict(allowing: [Logger.self]), .injecting(Clock.fixed(noon)))  // Swift Testing: an issue per type
struct OverdueTests {
    @Test func yesterdayIsOverdue() { #expect(isOverdue(noon.addingTimeInterval(-86_400))) }
}

final class OverdueTestCase: InjectingTestCase {  // XCTest: XCTFail per type
    override var strictModeAllowing: [any Injectable.Type]? { [Logger.self] }
    override var injections: InjectionContext { InjectionContext().injecting(Clock.fixed(noon)) }
    func testYesterdayIsOverdue() { XCTAssertTrue(isOverdue(noon.addingTimeInterval(-86_400))) }
}

struct Payments: AmbientValue {
    var charge: @Sendable (Int) -> Bool
    static var defaultValue: Payments { Payments(charge: PaymentGateway.shared.charge) }
    static var testValue: Payments? { Payments(charge: { _ in false }) }  // what strict mode returns
}

struct Telemetry: AmbientValue {
    var send: @Sendable (String) -> Void
    static var defaultValue: Telemetry { Telemetry(send: { _ in }) }
    static var allowsLiveReadsUnderStrictMode: Bool { true }  // never reported
}

func loadInBackground(completion: @escaping @Sendable (String) -> Void) {
    let work = InjectionContext.current.bind { completion(makeWidget()) }  // carries the caller's values
    DispatchQueue.global().async(execute: work)
}

@Test func theSearchHonoursTheLimit() async {
    // NoteManager searches on a private queue: nothing to wrap.
    await withInjectedProcessWide(Preferences(values: ["searchLimit": "5"])) {
        let notes = await NoteManager().search("milk")
        #expect(notes.count <= 5)
    }
}
