// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientTesting
import Foundation
import Testing

let noon = Date(timeIntervalSince1970: 43_200)
let midnight = Date(timeIntervalSince1970: 0)

@Suite(.injecting(Clock.fixed(midnight), Defaults.inMemory(["colour": "Red"])))
struct InjectionTraitTests {
    @Test func suiteValuesAreInjectedIntoEveryTest() {
        #expect(Clock.current.now == midnight)
        #expect(Defaults.current.string(forKey: "colour") == "Red")
    }

    @Test(.injecting(Clock.fixed(noon)))
    func testValuesWinOverSuiteValuesAndTheRestStays() {
        #expect(Clock.current.now == noon)
        #expect(Defaults.current.string(forKey: "colour") == "Red")
    }

    @Test(.injecting(Logger.capturing()))
    func valuesReachChildTasks() async {
        async let child = Clock.current.now
        #expect(await child == midnight)
        Logger.current.info("logged")
        #expect(Logger.current.captured.map(\.message) == ["logged"])
    }

    @Test(.injecting(Mode.offline), arguments: 0..<3)
    func everyCaseOfAParameterisedTestIsScoped(_ index: Int) {
        #expect(Mode.current == .offline)
        #expect(Clock.current.now == midnight)
    }
}

@Suite(.injecting(fresh: { Defaults.inMemory() }))
struct FreshInjectionTraitTests {
    @Test(arguments: 0..<5)
    func everyCaseGetsItsOwnFake(_ index: Int) {
        #expect(Defaults.current.snapshot.isEmpty)  // nothing written by the other cases
        Defaults.current.set(index, forKey: "written")
    }

    @Test(.injecting(fresh: { (Clock.fixed(noon), Logger.capturing()) }))
    func severalFreshValues() {
        #expect(Clock.current.now == noon)
        Logger.current.info("only mine")
        #expect(Logger.current.captured.count == 1)
    }
}

enum Mode: AmbientValue {
    case live, offline
    static var defaultValue: Mode { .live }
}

@Suite("Outside any trait")
struct NoTraitTests {
    @Test func nothingIsInjected() {
        #expect(InjectionContext.current[Clock.self] == nil)
        #expect(Mode.current == .live)
    }
}

/// `.injecting(Defaults.inMemory())` on a suite gives every test its own store: two tests
/// that each write a key never see each other's (serialized, so the second would see the
/// first's write if the store were shared), and each case of a parameterised test starts empty.
@Suite(.serialized, .injecting(Defaults.inMemory(), Logger.capturing()))
struct FreshPerTestTests {
    @Test func theFirstTestWritesItsKey() {
        #expect(Defaults.current.string(forKey: "second") == nil)
        Defaults.current.set("written", forKey: "first")
        Logger.current.info("first")
        #expect(Logger.current.captured.map(\.message) == ["first"])
    }

    @Test func theSecondTestWritesItsKey() {
        #expect(Defaults.current.string(forKey: "first") == nil)
        Defaults.current.set("written", forKey: "second")
        Logger.current.info("second")
        #expect(Logger.current.captured.map(\.message) == ["second"])
    }

    @Test(arguments: 0..<3) func everyCaseStartsEmpty(_ index: Int) {
        #expect(Defaults.current.dictionaryRepresentation().isEmpty)
        Defaults.current.set(index, forKey: "case")
    }
}
