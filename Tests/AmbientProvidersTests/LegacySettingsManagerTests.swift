// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation
import Testing

// A 2015-style settings singleton, as legacy apps have it, and the same class ported by
// replacing `UserDefaults.standard` with `Defaults.current` at each use, and nothing else.
// (Keys carry a prefix so the original can share the real standard domain with other tests.)

final class LegacySettingsManager: @unchecked Sendable {
    let prefix: String
    init(prefix: String) { self.prefix = prefix }
    func key(_ name: String) -> String { prefix + name }

    func registerDefaults() {
        UserDefaults.standard.register(defaults: [
            key("volume"): NSNumber(value: 0.5), key("username"): "guest", key("launchCount"): 0,
        ])
    }
    var volume: Float {
        get { UserDefaults.standard.float(forKey: key("volume")) }
        set { UserDefaults.standard.set(newValue, forKey: key("volume")) }
    }
    var username: String? {
        get { UserDefaults.standard.string(forKey: key("username")) }
        set { UserDefaults.standard.set(newValue, forKey: key("username")) }
    }
    var launchCount: Int { UserDefaults.standard.integer(forKey: key("launchCount")) }
    func incrementLaunchCount() {
        UserDefaults.standard.set(NSNumber(value: launchCount + 1), forKey: key("launchCount"))
    }
    var lastSync: Date? {
        get { UserDefaults.standard.object(forKey: key("lastSync")) as? Date }
        set { UserDefaults.standard.set(newValue, forKey: key("lastSync")) }
    }
    var recentSearches: [String] {
        get { UserDefaults.standard.stringArray(forKey: key("recent")) ?? [] }
        set { UserDefaults.standard.set(newValue, forKey: key("recent")) }
    }
    var isOnboarded: Bool {
        get { UserDefaults.standard.bool(forKey: key("onboarded")) }
        set { UserDefaults.standard.set(newValue, forKey: key("onboarded")) }
    }
    var serverURL: URL? {
        get { UserDefaults.standard.url(forKey: key("server")) }
        set { UserDefaults.standard.set(newValue, forKey: key("server")) }
    }
    var theme: [String: Any] {
        get { UserDefaults.standard.dictionary(forKey: key("theme")) ?? [:] }
        set { UserDefaults.standard.set(newValue, forKey: key("theme")) }
    }
    var rating: Double {
        get { UserDefaults.standard.double(forKey: key("rating")) }
        set { UserDefaults.standard.set(newValue, forKey: key("rating")) }
    }
    func save() { UserDefaults.standard.synchronize() }
    func exported() -> [String: Any] {
        UserDefaults.standard.dictionaryRepresentation().filter { $0.key.hasPrefix(prefix) }
    }
    func reset() {
        for name in UserDefaults.standard.dictionaryRepresentation().keys where name.hasPrefix(prefix) {
            UserDefaults.standard.removeObject(forKey: name)
        }
    }
}

final class PortedSettingsManager: @unchecked Sendable {
    let prefix: String
    init(prefix: String) { self.prefix = prefix }
    func key(_ name: String) -> String { prefix + name }

    func registerDefaults() {
        Defaults.current.register(defaults: [
            key("volume"): NSNumber(value: 0.5), key("username"): "guest", key("launchCount"): 0,
        ])
    }
    var volume: Float {
        get { Defaults.current.float(forKey: key("volume")) }
        set { Defaults.current.set(newValue, forKey: key("volume")) }
    }
    var username: String? {
        get { Defaults.current.string(forKey: key("username")) }
        set { Defaults.current.set(newValue, forKey: key("username")) }
    }
    var launchCount: Int { Defaults.current.integer(forKey: key("launchCount")) }
    func incrementLaunchCount() {
        Defaults.current.set(NSNumber(value: launchCount + 1), forKey: key("launchCount"))
    }
    var lastSync: Date? {
        get { Defaults.current.object(forKey: key("lastSync")) as? Date }
        set { Defaults.current.set(newValue, forKey: key("lastSync")) }
    }
    var recentSearches: [String] {
        get { Defaults.current.stringArray(forKey: key("recent")) ?? [] }
        set { Defaults.current.set(newValue, forKey: key("recent")) }
    }
    var isOnboarded: Bool {
        get { Defaults.current.bool(forKey: key("onboarded")) }
        set { Defaults.current.set(newValue, forKey: key("onboarded")) }
    }
    var serverURL: URL? {
        get { Defaults.current.url(forKey: key("server")) }
        set { Defaults.current.set(newValue, forKey: key("server")) }
    }
    var theme: [String: Any] {
        get { Defaults.current.dictionary(forKey: key("theme")) ?? [:] }
        set { Defaults.current.set(newValue, forKey: key("theme")) }
    }
    var rating: Double {
        get { Defaults.current.double(forKey: key("rating")) }
        set { Defaults.current.set(newValue, forKey: key("rating")) }
    }
    func save() { Defaults.current.synchronize() }
    func exported() -> [String: Any] {
        Defaults.current.dictionaryRepresentation().filter { $0.key.hasPrefix(prefix) }
    }
    func reset() {
        for name in Defaults.current.dictionaryRepresentation().keys where name.hasPrefix(prefix) {
            Defaults.current.removeObject(forKey: name)
        }
    }
}

@Suite("A legacy SettingsManager, ported by one word")
struct LegacySettingsManagerTests {
    /// Everything the manager exposes, in a comparable form.
    struct Observed: Equatable, CustomStringConvertible {
        var volume: Float, username: String?, launchCount: Int, lastSync: Date?, recent: [String]
        var onboarded: Bool, server: URL?, theme: String, rating: Double, exported: [String]
        var description: String {
            "\(volume) \(username ?? "nil") \(launchCount) \(lastSync.map { "\($0)" } ?? "nil") \(recent) "
                + "\(onboarded) \(server?.absoluteString ?? "nil") \(theme) \(rating) \(exported)"
        }
    }

    static func observe(
        volume: Float, username: String?, launchCount: Int, lastSync: Date?, recent: [String],
        onboarded: Bool, server: URL?, theme: [String: Any], rating: Double, exported: [String: Any]
    ) -> Observed {
        Observed(
            volume: volume, username: username, launchCount: launchCount, lastSync: lastSync, recent: recent,
            onboarded: onboarded, server: server,
            theme: "\(theme.keys.sorted()) \(theme["accent"] as? String ?? "-") \(theme["dark"] as? Bool ?? false)",
            rating: rating, exported: exported.keys.map { String($0.split(separator: ".").last!) }.sorted())
    }

    @Test func thePortBehavesLikeUserDefaultsCallForCall() throws {
        let prefix = "ambient.legacy.\(UUID().uuidString)."
        let legacy = LegacySettingsManager(prefix: prefix)
        let ported = PortedSettingsManager(prefix: prefix)
        let suiteName = "ambient.legacy.suite.\(UUID().uuidString)"
        let suite = try Defaults.suite(validating: suiteName)
        defer {
            legacy.reset()
            UserDefaults(suiteName: suiteName)?.removePersistentDomain(forName: suiteName)
        }
        let date = Date(timeIntervalSince1970: 1_000_000)

        // The same script against both; after every call, everything must read the same.
        let steps: [(String, (LegacySettingsManager) -> Void, (PortedSettingsManager) -> Void)] = [
            ("register", { $0.registerDefaults() }, { $0.registerDefaults() }),
            ("volume", { $0.volume = 0.25 }, { $0.volume = 0.25 }),
            ("username", { $0.username = "ada" }, { $0.username = "ada" }),
            ("username nil", { $0.username = nil }, { $0.username = nil }),
            ("launch", { $0.incrementLaunchCount() }, { $0.incrementLaunchCount() }),
            ("launch again", { $0.incrementLaunchCount() }, { $0.incrementLaunchCount() }),
            ("lastSync", { $0.lastSync = date }, { $0.lastSync = date }),
            ("recent", { $0.recentSearches = ["milk", "eggs"] }, { $0.recentSearches = ["milk", "eggs"] }),
            ("onboarded", { $0.isOnboarded = true }, { $0.isOnboarded = true }),
            (
                "server", { $0.serverURL = URL(string: "https://example.com/api") },
                {
                    $0.serverURL = URL(string: "https://example.com/api")
                }
            ),
            ("theme", { $0.theme = ["accent": "red", "dark": true] }, { $0.theme = ["accent": "red", "dark": true] }),
            ("rating", { $0.rating = 4.5 }, { $0.rating = 4.5 }),
            ("save", { $0.save() }, { $0.save() }),
            ("lastSync nil", { $0.lastSync = nil }, { $0.lastSync = nil }),
            // Not "serverURL = nil": on Linux, Foundation's own `UserDefaults.set(nil as URL?,
            // forKey:)` never returns (swift-corelibs-foundation). The port removes the key;
            // see `aNilURLRemovesTheKey`.
            ("reset", { $0.reset() }, { $0.reset() }),
        ]
        for (name, legacyStep, portedStep) in steps {
            legacyStep(legacy)
            let expected = Self.observe(
                volume: legacy.volume, username: legacy.username, launchCount: legacy.launchCount,
                lastSync: legacy.lastSync, recent: legacy.recentSearches, onboarded: legacy.isOnboarded,
                server: legacy.serverURL, theme: legacy.theme, rating: legacy.rating, exported: legacy.exported())
            let actual = withInjected(suite) {
                portedStep(ported)
                return Self.observe(
                    volume: ported.volume, username: ported.username, launchCount: ported.launchCount,
                    lastSync: ported.lastSync, recent: ported.recentSearches, onboarded: ported.isOnboarded,
                    server: ported.serverURL, theme: ported.theme, rating: ported.rating, exported: ported.exported())
            }
            // Linux's Foundation reads a stored URL back as a file URL ("file:///api"); Darwin's,
            // like the port, reads back the URL that was stored.
            var linuxFoundation = expected
            linuxFoundation.server = actual.server
            #expect(actual == linuxFoundation, "after \(name)")
            if name == "server" { #expect(actual.server == URL(string: "https://example.com/api")) }
        }
    }

    @Test func aNilURLRemovesTheKey() {
        let defaults = Defaults.inMemory(["server": "https://example.com"])
        defaults.set(nil as URL?, forKey: "server")
        defaults.set(nil, forKey: "also")
        #expect(defaults.snapshot.isEmpty)
    }

    @Test func aValueThatIsNotAPropertyListIsReportedAndNothingIsStored() async {
        // The non-throwing `set` logs and, in a debug build, stops at an assertion, as
        // UserDefaults raises: run it in a child process.
        await #expect(processExitsWith: .failure) {
            let log = Logger.capturing()
            let defaults = Defaults.inMemory(["kept": 1])
            withInjected(log) { defaults.set(NSObject(), forKey: "kept") }
        }
        #expect(throws: Defaults.InvalidValue(key: "kept", type: "NSObject")) {
            try Defaults.inMemory().set(checking: NSObject(), forKey: "kept")
        }
    }
}
