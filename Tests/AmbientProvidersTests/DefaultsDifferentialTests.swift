// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation
import Testing

/// `Defaults` side by side with Foundation's `UserDefaults`: seeded random sequences of
/// set, register and remove over every property-list type, applied to a real `UserDefaults`
/// suite, to `Defaults.inMemory` and to `Defaults.suite`, and every getter compared on every
/// key after every step.
///
/// Where they differ, `Defaults` follows Darwin's `UserDefaults`, which the code being
/// migrated was written against, and Linux's Foundation does not. Each such difference is a
/// row of ``DefaultsDeviation``, with the Darwin rule and where it is documented; any other
/// difference fails the test, printing the seed and the step to replay.
@Suite("Defaults against UserDefaults, differentially")
struct DefaultsDifferentialTests {
    /// CI runs this many sequences (a fifth under a sanitizer); `AMBIENT_DIFFERENTIAL_SEQUENCES`
    /// runs more.
    static let sequences =
        ProcessInfo.processInfo.environment["AMBIENT_DIFFERENTIAL_SEQUENCES"].flatMap(Int.init)
        ?? Sanitizers.scaled(300)
    static let stepsPerSequence = 12
    static let keyCount = 3

    @Test func randomSequencesReadTheSameAsUserDefaults() throws {
        var report = DifferentialReport()
        for seed in 0..<UInt64(Self.sequences) {
            try runSequence(seed: seed, report: &report)
        }
        if let dump = ProcessInfo.processInfo.environment["AMBIENT_DIFFERENTIAL_DUMP"] {
            try report.unexplained.joined(separator: "\n").write(toFile: dump, atomically: true, encoding: .utf8)
        }
        #expect(report.unexplained.count == 0, "\(report.unexplained.prefix(10).joined(separator: "\n"))")
        #expect(report.comparisons > Self.sequences * Self.stepsPerSequence * Self.keyCount * 10)
        print(report.summary)
    }

    func runSequence(seed: UInt64, report: inout DifferentialReport) throws {
        var random = Generator(seed: seed)
        // `UserDefaults`' registration domain is one per process, shared by every suite (on
        // Darwin too), so each sequence has keys of its own. `Defaults` registers per store.
        let keys = (0..<Self.keyCount).map { "key\($0).\(seed).\(UUID().uuidString)" }
        let suiteName = "ambient.differential.\(seed).\(UUID().uuidString)"
        let legacy = try #require(UserDefaults(suiteName: suiteName))
        let mirrorName = suiteName + ".defaults"
        let suite = try #require(Defaults.suite(mirrorName))
        let memory = Defaults.inMemory()
        defer {
            legacy.removePersistentDomain(forName: suiteName)
            UserDefaults(suiteName: mirrorName)?.removePersistentDomain(forName: mirrorName)
        }
        for step in 0..<Self.stepsPerSequence {
            let key = random.element(of: keys)
            let operation: String
            switch random.next() % 5 {
            case 0:
                legacy.removeObject(forKey: key)
                suite.removeObject(forKey: key)
                memory.removeObject(forKey: key)
                operation = "remove \(key)"
            case 1:
                let value = random.value()
                legacy.register(defaults: [key: value.foundation])
                suite.register(defaults: [key: value.foundation])
                memory.register(defaults: [key: value.foundation])
                operation = "register \(key) = \(value)"
            default:
                let value = random.value()
                value.set(in: legacy, forKey: key)
                value.set(in: suite, forKey: key)
                value.set(in: memory, forKey: key)
                operation = "set \(key) = \(value)"
            }
            for key in keys {
                let expected = Readings(legacy, key: key)
                for (name, defaults) in [("suite", suite), ("inMemory", memory)] {
                    let actual = Readings(defaults, key: key)
                    report.compare(
                        expected, actual, stored: defaults.propertyList(forKey: key),
                        context: "seed \(seed) step \(step) (\(operation)), \(name), key \(key.prefix(4))")
                }
            }
        }
    }
}

/// One value the generator makes, and how each side stores it.
enum GeneratedValue: CustomStringConvertible {
    case plain(Any)
    case float(Float)
    case url(URL)

    var foundation: Any {
        switch self {
        case .plain(let value): value
        case .float(let value): value
        case .url(let value): value
        }
    }

    func set(in defaults: UserDefaults, forKey key: String) {
        switch self {
        case .plain(let value): defaults.set(value, forKey: key)
        case .float(let value): defaults.set(value, forKey: key)
        case .url(let value): defaults.set(value, forKey: key)
        }
    }

    func set(in defaults: Defaults, forKey key: String) {
        switch self {
        case .plain(let value): defaults.set(value, forKey: key)
        case .float(let value): defaults.set(value, forKey: key)
        case .url(let value): defaults.set(value, forKey: key)
        }
    }

    var description: String {
        switch self {
        case .plain(let value): "\(type(of: value))(\(value))"
        case .float(let value): "Float(\(value))"
        case .url(let value): "URL(\(value.absoluteString))"
        }
    }
}

/// A seeded generator of keys and values (the round-trip tests' SplitMix64, so a seed
/// replays exactly).
struct Generator {
    var random: SplitMix
    init(seed: UInt64) { random = SplitMix(state: seed) }

    mutating func next() -> UInt64 { random.next() }

    mutating func element<T>(of choices: [T]) -> T { choices[Int(next() % UInt64(choices.count))] }

    static let strings = [
        "", "a", "Red", "YES", "no", "true", "0", "1", "42", " 42abc", "-7", "2.5", "1e3", "0x1F",
        "~/Documents/x", "/a/b", "https://example.com/x", "ünïcødé", "  ", "+5", "007",
    ]
    static let integers = [0, 1, -1, 2, 7, 42, -42, 1_000_000, Int.max, Int.min]
    static let doubles = [0.0, -0.0, 0.5, 1.0, 1.5, 2.7, -2.7, 1e300, -1e-300, 0.1, 12.34, 9.999_999_999_999_999e22]
    static let floats: [Float] = [0, 0.5, 1.5, 12.34, -3.25, 0.1]

    /// A scalar: string, integer, unsigned above Int.max, double, float, Bool, Data, Date,
    /// URL, or an NSNumber of any kind.
    mutating func scalar() -> GeneratedValue {
        switch next() % 12 {
        case 0, 1: .plain(element(of: Self.strings))
        case 2: .plain(element(of: Self.integers))
        case 3: .plain(element(of: Self.doubles))
        case 4: .float(element(of: Self.floats))
        case 5: .plain(next() % 2 == 0)
        case 6: .plain(Data((0..<Int(next() % 5)).map { _ in UInt8(truncatingIfNeeded: next()) }))
        case 7: .plain(Date(timeIntervalSince1970: Double(next() % 2_000_000_000)))
        case 8:
            .url(
                element(of: [
                    URL(fileURLWithPath: "/tmp/a b"), URL(string: "https://example.com/x?y=1")!,
                    URL(fileURLWithPath: NSHomeDirectory() + "/Library/x"),
                ]))
        case 9: .plain(UInt64(Int.max) + 1 + next() % 1000)
        case 10:
            .plain(
                element(of: [
                    NSNumber(value: true), NSNumber(value: Int8(3)), NSNumber(value: 1), NSNumber(value: Float(2.5)),
                    NSNumber(value: 0.25), NSNumber(value: UInt32.max),
                ]))
        default: .plain(element(of: Self.strings))
        }
    }

    /// A scalar, or an array or dictionary of plain values (nested one level).
    mutating func value() -> GeneratedValue {
        switch next() % 6 {
        case 0: .plain((0..<Int(next() % 4)).map { _ in plainLeaf() })
        case 1:
            .plain(
                Dictionary(
                    (0..<Int(next() % 3)).map { index in ("k\(index)", plainLeaf()) }, uniquingKeysWith: { a, _ in a }))
        default: scalar()
        }
    }

    /// A leaf for a collection: strings often (stringArray), else any plain scalar.
    mutating func plainLeaf() -> Any {
        if next() % 2 == 0 { return element(of: Self.strings) }
        switch scalar() {
        case .plain(let value): return value
        case .float(let value): return value
        case .url(let value): return value.absoluteString
        }
    }
}

/// Every getter's answer for one key, normalised to compare.
struct Readings {
    var object: PropertyList?
    var string: String?
    var integer: Int
    var double: Double
    var float: Float
    var bool: Bool
    var data: Data?
    var url: URL?
    var array: PropertyList?
    var stringArray: [String]?
    var dictionary: PropertyList?

    init(_ defaults: some DefaultsGetters, key: String) {
        object = defaults.object(forKey: key).flatMap(PropertyList.init)
        string = defaults.string(forKey: key)
        integer = defaults.integer(forKey: key)
        double = defaults.double(forKey: key)
        float = defaults.float(forKey: key)
        bool = defaults.bool(forKey: key)
        data = defaults.data(forKey: key)
        url = defaults.urlIfReadable(forKey: key)
        array = defaults.array(forKey: key).flatMap(PropertyList.init)
        stringArray = defaults.stringArray(forKey: key)
        dictionary = defaults.dictionary(forKey: key).flatMap(PropertyList.init)
    }

    /// The getters whose answers differ, each with both answers.
    /// A property-list getter whose answers differ only in the kind of some number (a float
    /// where the other has a double of the same value, at any depth) is named with a
    /// `sameNumberOtherKind:` prefix, for ``DefaultsDeviation``'s row of that name.
    func differences(from other: Readings) -> [(getter: String, legacy: String, defaults: String)] {
        var result: [(String, String, String)] = []
        func check<T: Equatable>(_ name: String, _ a: T, _ b: T) {
            if a != b { result.append((name, "\(a)", "\(b)")) }
        }
        func check(_ name: String, _ a: PropertyList?, _ b: PropertyList?) {
            guard a != b else { return }
            let kindOnly = a.map(Self.numbersAsDoubles) == b.map(Self.numbersAsDoubles)
            result.append(
                (
                    kindOnly ? "sameNumberOtherKind:\(name)" : name, "\(a.map { "\($0)" } ?? "nil")",
                    "\(b.map { "\($0)" } ?? "nil")"
                ))
        }
        func same(_ a: Double, _ b: Double) -> Bool { a == b || (a.isNaN && b.isNaN) }
        check("object", object, other.object)
        check("string", string, other.string)
        check("integer", integer, other.integer)
        if !same(double, other.double) { result.append(("double", "\(double)", "\(other.double)")) }
        if !same(Double(float), Double(other.float)) { result.append(("float", "\(float)", "\(other.float)")) }
        check("bool", bool, other.bool)
        check("data", data, other.data)
        check("url", url?.standardizedFileURL, other.url?.standardizedFileURL)
        check("array", array, other.array)
        check("stringArray", stringArray, other.stringArray)
        check("dictionary", dictionary, other.dictionary)
        return result
    }

    /// `value` with every integer and float as the double of the same value.
    static func numbersAsDoubles(_ value: PropertyList) -> PropertyList {
        switch value {
        case .integer(let number): .double(Double(number))
        case .float(let number): .double(Double(number))
        case .array(let values): .array(values.map(numbersAsDoubles))
        case .dictionary(let values): .dictionary(values.mapValues(numbersAsDoubles))
        default: value
        }
    }
}

/// What the differential run found.
struct DifferentialReport {
    var comparisons = 0
    var tolerated: [String: Int] = [:]
    var unexplained: [String] = []

    mutating func compare(_ legacy: Readings, _ actual: Readings, stored: PropertyList?, context: String) {
        comparisons += 11
        for difference in legacy.differences(from: actual) {
            if let deviation = DefaultsDeviation.explaining(
                getter: difference.getter, stored: stored, legacy: difference.legacy, defaults: difference.defaults)
            {
                tolerated[deviation.name, default: 0] += 1
            } else {
                unexplained.append(
                    "\(context): \(difference.getter) — UserDefaults \(difference.legacy), Defaults \(difference.defaults); stored \(stored.map { "\($0)" } ?? "nil")"
                )
            }
        }
    }

    var summary: String {
        "differential: \(comparisons) comparisons, \(tolerated.values.reduce(0, +)) known deviations "
            + tolerated.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
    }
}

/// The getters `UserDefaults` and `Defaults` share, so one reading serves both.
protocol DefaultsGetters {
    func object(forKey key: String) -> Any?
    func string(forKey key: String) -> String?
    func integer(forKey key: String) -> Int
    func double(forKey key: String) -> Double
    func float(forKey key: String) -> Float
    func bool(forKey key: String) -> Bool
    func data(forKey key: String) -> Data?
    func url(forKey key: String) -> URL?
    func array(forKey key: String) -> [Any]?
    func stringArray(forKey key: String) -> [String]?
    func dictionary(forKey key: String) -> [String: Any]?
    /// `url(forKey:)`, where it can answer without stopping the process.
    func urlIfReadable(forKey key: String) -> URL?
}

extension DefaultsGetters {
    func urlIfReadable(forKey key: String) -> URL? { url(forKey: key) }
}

extension Defaults: DefaultsGetters {}

extension UserDefaults: DefaultsGetters {
    /// Linux's `url(forKey:)` stops the process on data that is no URL archive (its
    /// unarchiver's failure policy raises); Darwin's returns nil, as documented. Ask it only
    /// where it can answer.
    func urlIfReadable(forKey key: String) -> URL? {
        guard let data = object(forKey: key) as? Data else { return url(forKey: key) }
        return (try? NSKeyedUnarchiver.unarchivedObject(ofClass: NSURL.self, from: data)).map { $0 as URL }
    }
}
