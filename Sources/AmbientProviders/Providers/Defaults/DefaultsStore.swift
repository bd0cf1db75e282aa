// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: a Defaults value is a surface over a store: memory for tests, UserDefaults live.

/// The storage behind a ``Defaults`` value: a dictionary in memory
/// (``InMemoryDefaultsStore``) or Foundation's `UserDefaults` (``UserDefaultsStore``).
///
/// A store supplies five primitives, which the operations below call with the store's
/// lock held; the operations add what every store needs: one lock per store, so
/// read-modify-write is atomic, change streams that hear of every write made through
/// Ambient, and strict mode's check for a fake kept from an earlier scope.
protocol DefaultsStore: AnyObject, Sendable, CustomStringConvertible {
    /// The store's lock and its change observers.
    var coordination: DefaultsStoreCoordination { get }

    /// Whether this store is a test fake (in memory): strict mode checks fakes for pinning.
    var isFake: Bool { get }

    /// The stored or registered value for `key`. Called with the lock held.
    func read(_ key: String) -> PropertyList?
    /// Stores `value` (`nil`: removes it). Called with the lock held.
    func write(_ value: PropertyList?, forKey key: String)
    /// Registers fallbacks, as `UserDefaults.register(defaults:)`. Called with the lock held.
    func registerValues(_ values: [String: PropertyList])
    /// What the store itself holds (no registered values). Called with the lock held.
    func persistentValues() -> [String: PropertyList]
    /// Every value a read can see: registered ones under stored ones. Called with the lock held.
    func visibleValues() -> [String: PropertyList]
}

extension DefaultsStore {
    private var lock: Lock { coordination.lock }

    func value(forKey key: String) -> PropertyList? {
        checkNotPinned("read \"\(key)\" from")
        return lock.withLock { read(key) }
    }

    func set(_ value: PropertyList?, forKey key: String) {
        checkNotPinned("wrote \"\(key)\" to")
        lock.withLock { write(value, forKey: key) }
        coordination.notify(key, value)
    }

    func register(_ values: [String: PropertyList]) {
        lock.withLock { registerValues(values) }
    }

    var snapshot: [String: PropertyList] {
        lock.withLock { persistentValues() }
    }

    var everything: [String: PropertyList] {
        lock.withLock { visibleValues() }
    }

    /// Atomically replaces the value for `key` with `transform(old)`; returns the new value.
    func update<R>(
        _ key: String,
        _ transform: (PropertyList?) throws -> (stored: PropertyList?, result: R)
    ) rethrows -> R {
        checkNotPinned("updated \"\(key)\" in")
        lock.lock()
        let outcome: (stored: PropertyList?, result: R)
        do {
            outcome = try transform(read(key))
        } catch {
            lock.unlock()
            throw error
        }
        write(outcome.stored, forKey: key)
        lock.unlock()
        coordination.notify(key, outcome.stored)
        return outcome.result
    }

    func changes(forKey key: String) -> AsyncStream<PropertyList?> {
        coordination.changes(forKey: key)
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
