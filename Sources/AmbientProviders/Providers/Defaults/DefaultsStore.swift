// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: a Defaults value is a surface over a store: memory for tests, UserDefaults live.

/// The storage behind a ``Defaults`` value: a dictionary in memory
/// (``InMemoryDefaultsStore``) or Foundation's `UserDefaults` (``UserDefaultsStore``).
///
/// A store supplies five primitives, each safe to call from any thread (each store takes
/// a lock of its own); reading and writing through `value(forKey:)` and `set(_:forKey:)`
/// adds strict mode's check for a fake kept from an earlier scope.
protocol DefaultsStore: AnyObject, Sendable, CustomStringConvertible {
    /// Whether this store is a test fake (in memory): strict mode checks fakes for pinning.
    var isFake: Bool { get }

    /// The stored or registered value for `key`.
    func read(_ key: String) -> PropertyList?
    /// Stores `value` (`nil`: removes it).
    func write(_ value: PropertyList?, forKey key: String)
    /// Registers fallbacks, as `UserDefaults.register(defaults:)`.
    func registerValues(_ values: [String: PropertyList])
    /// What the store itself holds (no registered values).
    func persistentValues() -> [String: PropertyList]
    /// Every value a read can see: registered ones under stored ones.
    func visibleValues() -> [String: PropertyList]
}

extension DefaultsStore {
    func value(forKey key: String) -> PropertyList? {
        checkNotPinned("read \"\(key)\" from")
        return read(key)
    }

    func set(_ value: PropertyList?, forKey key: String) {
        checkNotPinned("wrote \"\(key)\" to")
        write(value, forKey: key)
    }

    /// Under strict mode, reports this fake being used where a *different* fake is current:
    /// a fake kept from an earlier scope, almost always because `Defaults.current` was
    /// stored in a property (`private let defaults = Defaults.current`) when the first test
    /// ran, so every later test reads and writes the first test's store.
    private func checkNotPinned(_ operation: @autoclosure () -> String) {
        guard isFake, StrictMode.current.isEnabled else { return }
        let current = Defaults.current
        guard current.store !== self, current.store.isFake else { return }
        IssueReporter.current.report(
            "Defaults: code \(operation()) \(self), but \(current.store) is the one injected here. A fake from "
                + "an earlier scope is still in use: usually `Defaults.current` stored in a property "
                + "(`let defaults = Defaults.current`), which keeps the first test's store. Read `Defaults.current` "
                + "where it is used, or make the property computed (`var defaults: Defaults { .current }`).",
            at: IssueReporter.Location(fileID: #fileID, filePath: #filePath, line: #line, column: #column)
        )
    }
}
