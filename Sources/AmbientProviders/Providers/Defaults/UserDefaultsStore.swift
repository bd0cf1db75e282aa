// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: the live store is Foundation's UserDefaults, read and written as legacy code did.

/// Foundation's `UserDefaults`: the standard domain or a named suite (``Defaults/standard``,
/// ``Defaults/suite(_:)``).
final class UserDefaultsStore: DefaultsStore, @unchecked Sendable {
    // @unchecked: `defaults` is only touched with `lock` held.

    /// Held around every call into `defaults`: Linux's Foundation loses writes made to one
    /// `UserDefaults` from several threads at once (a key written, then read back on the
    /// same thread, reads as missing), and legacy code expects Darwin's, which does not.
    private let lock = Lock()
    private let defaults: UserDefaults
    private let suiteName: String?

    private init(defaults: UserDefaults, suiteName: String?) {
        self.defaults = defaults
        self.suiteName = suiteName
    }

    static let standard = UserDefaultsStore(defaults: .standard, suiteName: nil)

    /// One store per suite name, so every `Defaults.suite(name)` reads and writes through
    /// the same `UserDefaults` object.
    private static let suites = Locked<[String: UserDefaultsStore]>([:])

    static func suite(_ name: String) -> UserDefaultsStore? {
        suites.withLock { suites in
            if let store = suites[name] { return store }
            guard let defaults = UserDefaults(suiteName: name) else { return nil }
            let store = UserDefaultsStore(defaults: defaults, suiteName: name)
            suites[name] = store
            return store
        }
    }

    var isFake: Bool { false }

    func read(_ key: String) -> PropertyList? {
        lock.withLock { defaults.object(forKey: key) }.flatMap(Self.stored)
    }

    /// A value the suite holds, as ``Defaults`` keeps it: a property list, or a URL that
    /// legacy code registered on the suite itself (`UserDefaults.register(defaults:)` keeps
    /// the `URL` object) in the form a set URL is stored in.
    private static func stored(_ value: Any) -> PropertyList? {
        if let url = value as? URL { return PropertyList(url: url) }
        return PropertyList(value)
    }

    func write(_ value: PropertyList?, forKey key: String) {
        let object = value?.foundationValue
        lock.withLock {
            if let object {
                defaults.set(object, forKey: key)
            } else {
                defaults.removeObject(forKey: key)
            }
        }
    }

    func registerValues(_ values: [String: PropertyList]) {
        let objects = values.mapValues(\.foundationValue)
        lock.withLock { defaults.register(defaults: objects) }
    }

    func visibleValues() -> [String: PropertyList] {
        lock.withLock { defaults.dictionaryRepresentation() }.compactMapValues(Self.stored)
    }

    func persistentValues() -> [String: PropertyList] {
        let domain = suiteName ?? Bundle.main.bundleIdentifier
        let values = lock.withLock {
            domain.flatMap { defaults.persistentDomain(forName: $0) } ?? defaults.dictionaryRepresentation()
        }
        return values.compactMapValues(Self.stored)
    }

    var description: String {
        suiteName.map { "Defaults.suite(\"\($0)\")" } ?? "Defaults.standard"
    }
}
