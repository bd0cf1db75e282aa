// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation
import Testing

/// Numbers as Objective-C code and Darwin's `UserDefaults` hand them over: as `NSNumber`,
/// alone and inside `NSArray` / `NSDictionary`. Each must come back as the number it was.
@Suite("Defaults: every number reads back")
struct DefaultsNumberTests {
    /// Numbers of every kind `NSNumber` boxes, and what each must be stored as.
    static let numbers: [(input: NSNumber, stored: PropertyList)] = [
        (NSNumber(value: 0), .integer(0)),
        (NSNumber(value: 1), .integer(1)),
        (NSNumber(value: 7), .integer(7)),
        (NSNumber(value: 0.5), .double(0.5)),
        (NSNumber(value: true), .bool(true)),
        (NSNumber(value: false), .bool(false)),
        (NSNumber(value: UInt64.max), .unsignedInteger(.max)),
        (NSNumber(value: Int8(1)), .integer(1)),
        (NSNumber(value: UInt8(1)), .integer(1)),
        (NSNumber(value: Int64.min), .integer(.min)),
        (NSNumber(value: Float(1.5)), .float(1.5)),  // a float stays one, as UserDefaults keeps it
    ]

    /// The three ways a value reaches a store: `set`, `register(defaults:)`, and a suite
    /// written behind Ambient's back with `UserDefaults(suiteName:)`.
    enum Route: CaseIterable { case set, register, suiteBehindTheBack }

    /// A store holding `value` for "key", put there by `route`.
    func store(_ value: Any, via route: Route) throws -> (Defaults, cleanUp: () -> Void) {
        switch route {
        case .set:
            let defaults = Defaults.inMemory()
            try defaults.set(checking: value, forKey: "key")
            return (defaults, {})
        case .register:
            let defaults = Defaults.inMemory()
            try defaults.register(checking: ["key": value])
            return (defaults, {})
        case .suiteBehindTheBack:
            let name = "ambient.numbers.\(UUID().uuidString)"
            let raw = try #require(UserDefaults(suiteName: name))
            raw.set(value, forKey: "key")
            let defaults = try #require(Defaults.suite(name))
            return (defaults, { raw.removePersistentDomain(forName: name) })
        }
    }

    @Test(arguments: Route.allCases)
    func anNSNumberIsStoredAsWhatItHolds(route: Route) throws {
        for (input, stored) in Self.numbers {
            let (defaults, cleanUp) = try store(input, via: route)
            defer { cleanUp() }
            #expect(defaults.propertyList(forKey: "key") == stored, "\(input) via \(route)")
        }
    }

    @Test(arguments: Route.allCases)
    func numbersInsideNSArrayAndNSDictionaryKeepTheirKind(route: Route) throws {
        let array = NSArray(array: [NSNumber(value: 1), "a", NSNumber(value: 0), NSNumber(value: true)])
        let (arrayStore, cleanArray) = try store(array, via: route)
        defer { cleanArray() }
        #expect(arrayStore.propertyList(forKey: "key") == [1, "a", 0, true])

        let dictionary = NSDictionary(dictionary: ["a": NSNumber(value: 1), "b": NSNumber(value: UInt64.max)])
        let (dictionaryStore, cleanDictionary) = try store(dictionary, via: route)
        defer { cleanDictionary() }
        #expect(dictionaryStore.propertyList(forKey: "key") == ["a": 1, "b": .unsignedInteger(.max)])
    }

    @Test(arguments: Route.allCases)
    func aCounterStoredAsANumberKeepsCounting(route: Route) throws {
        let (defaults, cleanUp) = try store(NSNumber(value: 1), via: route)
        defer { cleanUp() }
        for _ in 0..<2 {
            defaults.set(defaults.integer(forKey: "key") + 1, forKey: "key")
        }
        #expect(defaults.integer(forKey: "key") == 3, "a counter at 1 incremented twice")
        #expect(defaults.propertyList(forKey: "key") == .integer(3))
    }

    @Test(arguments: Route.allCases)
    func theBiggestUnsignedIntegerIsKeptExactly(route: Route) throws {
        let (defaults, cleanUp) = try store(NSNumber(value: UInt64.max), via: route)
        defer { cleanUp() }
        #expect(defaults.propertyList(forKey: "key") == .unsignedInteger(.max))
        #expect(defaults.string(forKey: "key") == "18446744073709551615")
        #expect(defaults.integer(forKey: "key") == -1, "as -[NSNumber integerValue] gives it")
        #expect(defaults.object(forKey: "key") as? UInt64 == .max)
    }

    @Test func aSwiftUInt64AboveIntMaxIsKeptToo() throws {
        let defaults = Defaults.inMemory()
        try defaults.set(checking: UInt64.max, forKey: "big")
        try defaults.set(checking: UInt(5), forKey: "small")
        #expect(defaults.propertyList(forKey: "big") == .unsignedInteger(.max))
        #expect(defaults.propertyList(forKey: "small") == .integer(5))
        defaults.set(UInt64(Int.max) + 1, forKey: "unchecked")
        #expect(defaults.propertyList(forKey: "unchecked") == .unsignedInteger(UInt64(Int.max) + 1))
    }

    /// The untyped getters follow Darwin's `UserDefaults` (the table in
    /// `PropertyList+Conversions.swift` and the migration article).
    @Test func untypedGettersConvertAsDarwinsUserDefaults() {
        let defaults = Defaults.inMemory([
            "true": true, "false": false, "one": 1, "zero": 0, "seven": 7, "twoAndAHalf": 2.5, "half": 0.5,
            "two": 2.0, "big": .unsignedInteger(.max), "YES": "YES", "trueText": "true", "no": "no",
            "zeroText": "0", "leading": " 42abc", "minus": "-3.5e2x", "huge": 1e300, "nan": .double(.nan),
            "data": .data(Data([1])), "list": [1],
        ])
        // integer(forKey:)
        #expect(defaults.integer(forKey: "true") == 1)
        #expect(defaults.integer(forKey: "false") == 0)
        #expect(defaults.integer(forKey: "seven") == 7)
        #expect(defaults.integer(forKey: "twoAndAHalf") == 2)
        #expect(defaults.integer(forKey: "leading") == 42)
        #expect(defaults.integer(forKey: "minus") == -3)
        #expect(defaults.integer(forKey: "huge") == Int.max, "saturates, never traps")
        #expect(defaults.integer(forKey: "nan") == 0)
        #expect(defaults.integer(forKey: "YES") == 0)
        #expect(defaults.integer(forKey: "data") == 0)
        #expect(defaults.integer(forKey: "missing") == 0)
        // bool(forKey:)
        #expect(defaults.bool(forKey: "one"))
        #expect(!defaults.bool(forKey: "zero"))
        #expect(defaults.bool(forKey: "twoAndAHalf"))
        #expect(defaults.bool(forKey: "half"))
        #expect(defaults.bool(forKey: "big"))
        #expect(defaults.bool(forKey: "YES"))
        #expect(defaults.bool(forKey: "trueText"))
        #expect(!defaults.bool(forKey: "no"))
        #expect(!defaults.bool(forKey: "zeroText"))
        #expect(defaults.bool(forKey: "leading"))
        #expect(!defaults.bool(forKey: "list"))
        // double(forKey:)
        #expect(defaults.double(forKey: "seven") == 7)
        #expect(defaults.double(forKey: "true") == 1)
        #expect(defaults.double(forKey: "leading") == 42)
        #expect(defaults.double(forKey: "minus") == -350)
        #expect(defaults.double(forKey: "big") == Double(UInt64.max))
        // string(forKey:)
        #expect(defaults.string(forKey: "true") == "1")
        #expect(defaults.string(forKey: "two") == "2")
        #expect(defaults.string(forKey: "twoAndAHalf") == "2.5")
        #expect(defaults.string(forKey: "seven") == "7")
        #expect(defaults.string(forKey: "data") == nil)
    }

    @Test func aNumberOutsideEveryCaseIsRefusedWithTheTypedError() {
        let defaults = Defaults.inMemory(["kept": 1])
        #expect(throws: Defaults.InvalidValue(key: "kept", type: "Int128")) {
            try defaults.set(checking: Int128(UInt64.max) + 1, forKey: "kept")
        }
        #expect(defaults.snapshot == ["kept": 1], "nothing written")
    }
}
