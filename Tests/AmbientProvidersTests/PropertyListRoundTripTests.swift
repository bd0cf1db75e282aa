// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation
import Testing

/// Random property lists, every kind nested in every other, numbers wrapped in `NSNumber`
/// half the time and collections in `NSArray` / `NSDictionary`: written and read back through
/// the in-memory store and a `UserDefaults` suite, each comes back equal.
@Suite("PropertyList: random round trips")
struct PropertyListRoundTripTests {
    /// A random value and the Foundation form legacy code would hand over for it.
    static func randomValue(depth: Int, using random: inout SplitMix) -> (PropertyList, Any) {
        let wrap = Bool.random(using: &random)
        switch Int.random(in: 0..<(depth > 2 ? 8 : 10), using: &random) {
        case 0:
            let text = String(
                (0..<Int.random(in: 0..<6, using: &random)).map { _ in
                    "aZ0 é✓".randomElement(using: &random)!
                })
            return (.string(text), wrap ? NSString(string: text) : text)
        case 1:
            let value = [0, 1, -1, 7, .max, .min, Int.random(in: -1000...1000, using: &random)]
                .randomElement(using: &random)!
            return (.integer(value), wrap ? NSNumber(value: value) : value)
        case 2:
            let value = UInt64.random(in: UInt64(Int.max) + 1 ... .max, using: &random)
            return (.unsignedInteger(value), wrap ? NSNumber(value: value) : value)
        case 3:
            let value = [0, 1, 0.5, -2.25, 1e300, Double.random(in: -1e6...1e6, using: &random)]
                .randomElement(using: &random)!
            return (.double(value), wrap ? NSNumber(value: value) : value)
        case 4:
            let value = Bool.random(using: &random)
            return (.bool(value), wrap ? NSNumber(value: value) : value)
        case 5:
            let value = Data(
                (0..<Int.random(in: 0..<5, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
            return (.data(value), value)
        case 6, 7:
            let value = Date(
                timeIntervalSinceReferenceDate: Double(Int.random(in: -1_000_000...1_000_000, using: &random)))
            return (.date(value), value)
        case 8:
            let elements = (0..<Int.random(in: 0..<4, using: &random)).map { _ in
                randomValue(depth: depth + 1, using: &random)
            }
            return (.array(elements.map(\.0)), wrap ? NSArray(array: elements.map(\.1)) : elements.map(\.1))
        default:
            var expected: [String: PropertyList] = [:]
            var foundation: [String: Any] = [:]
            for index in 0..<Int.random(in: 0..<4, using: &random) {
                let (value, raw) = randomValue(depth: depth + 1, using: &random)
                expected["k\(index)"] = value
                foundation["k\(index)"] = raw
            }
            return (.dictionary(expected), wrap ? NSDictionary(dictionary: foundation) : foundation)
        }
    }

    @Test func randomPropertyListsRoundTripThroughBothStores() throws {
        let name = "ambient.roundtrip.\(UUID().uuidString)"
        let suite = try #require(Defaults.suite(name))
        defer { UserDefaults(suiteName: name)?.removePersistentDomain(forName: name) }
        let memory = Defaults.inMemory()
        for seed in UInt64(1)...400 {
            var random = SplitMix(state: seed)
            let (expected, foundation) = Self.randomValue(depth: 0, using: &random)
            for store in [memory, suite] {
                try store.set(checking: foundation, forKey: "value")
                #expect(store.propertyList(forKey: "value") == expected, "seed \(seed), \(store)")
                // Back out through object(forKey:) and in again: still equal.
                let object = try #require(store.object(forKey: "value"))
                try store.set(checking: object, forKey: "again")
                #expect(store.propertyList(forKey: "again") == expected, "seed \(seed), \(store), twice")
            }
        }
    }
}
