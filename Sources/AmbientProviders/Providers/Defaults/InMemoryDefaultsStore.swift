// SPDX-License-Identifier: Apache-2.0

import AmbientCore
// Why: a fake store per test, complete and thread-safe, gone with the test.

/// A dictionary in memory: isolated per instance, gone with it (``Defaults/inMemory(_:)``).
final class InMemoryDefaultsStore: DefaultsStore, @unchecked Sendable {
    // @unchecked: both dictionaries are only touched under `coordination.lock`.
    let coordination = DefaultsStoreCoordination()
    private var values: [String: PropertyList]
    private var registered: [String: PropertyList] = [:]

    init(_ values: [String: PropertyList]) {
        self.values = values
    }

    var isFake: Bool { true }
    func read(_ key: String) -> PropertyList? { values[key] ?? registered[key] }
    func write(_ value: PropertyList?, forKey key: String) { values[key] = value }
    func registerValues(_ values: [String: PropertyList]) {
        registered.merge(values) { _, new in new }
    }
    func persistentValues() -> [String: PropertyList] { values }
    func visibleValues() -> [String: PropertyList] { registered.merging(values) { _, stored in stored } }
    var description: String {
        "Defaults.inMemory(\(values.count) \(values.count == 1 ? "key" : "keys"))"
    }
}
