// SPDX-License-Identifier: Apache-2.0

import AmbientCore
// Why: a fake store per test, complete and thread-safe, gone with the test.

/// A dictionary in memory: isolated per instance, gone with it (``Defaults/inMemory(_:)``).
final class InMemoryDefaultsStore: DefaultsStore {
    /// What was stored, and what was registered underneath it.
    private struct Contents {
        var values: [String: PropertyList]
        var registered: [String: PropertyList] = [:]
    }

    private let contents: Locked<Contents>

    init(_ values: [String: PropertyList]) {
        contents = Locked(Contents(values: values))
    }

    var isFake: Bool { true }
    func read(_ key: String) -> PropertyList? {
        contents.withLock { $0.values[key] ?? $0.registered[key] }
    }
    func write(_ value: PropertyList?, forKey key: String) {
        contents.withLock { $0.values[key] = value }
    }
    func registerValues(_ values: [String: PropertyList]) {
        contents.withLock { $0.registered.merge(values) { _, new in new } }
    }
    func persistentValues() -> [String: PropertyList] { contents.withLock { $0.values } }
    func visibleValues() -> [String: PropertyList] {
        contents.withLock { $0.registered.merging($0.values) { _, stored in stored } }
    }
    var description: String {
        let count = contents.withLock { $0.values.count }
        return "Defaults.inMemory(\(count) \(count == 1 ? "key" : "keys"))"
    }
}
