import Foundation

/// The storage behind a ``Defaults`` value. Every write goes through here, under one lock,
/// so read-modify-write is atomic and observers hear of every change made through Ambient.
class DefaultsStore: @unchecked Sendable, CustomStringConvertible {
    // @unchecked: `observers` and everything subclasses keep are only touched under `lock`
    // (or are themselves thread-safe, like `UserDefaults`).
    /// Recursive: `update` runs the caller's transform with the lock held (that is what makes
    /// it atomic), and a transform may read the same store (`Defaults.current.string(…)`).
    private let lock = Lock(recursive: true)
    private var observers: [String: [UInt64: AsyncStream<PropertyList?>.Continuation]] = [:]
    private var nextObserver: UInt64 = 0

    // MARK: Subclass hooks (called with the lock held)

    func read(_ key: String) -> PropertyList? { fatalError("abstract") }
    func write(_ value: PropertyList?, forKey key: String) { fatalError("abstract") }
    func registerValues(_ values: [String: PropertyList]) { fatalError("abstract") }
    func persistentValues() -> [String: PropertyList] { fatalError("abstract") }
    /// Every value a read can see: registered ones under stored ones.
    func visibleValues() -> [String: PropertyList] { fatalError("abstract") }
    var description: String { "Defaults" }

    /// Whether this store is a test fake (in memory): strict mode checks fakes for pinning.
    var isFake: Bool { false }

    // MARK: Operations

    func value(forKey key: String) -> PropertyList? {
        checkNotPinned("read \"\(key)\" from")
        return lock.withLock { read(key) }
    }

    func set(_ value: PropertyList?, forKey key: String) {
        checkNotPinned("wrote \"\(key)\" to")
        lock.withLock { write(value, forKey: key) }
        notify(key, value)
    }

    func register(_ values: [String: PropertyList]) {
        lock.withLock { registerValues(values) }
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
        let (stored, result) = try lock.withLock { () throws -> (PropertyList?, R) in
            let (stored, result) = try transform(read(key))
            write(stored, forKey: key)
            return (stored, result)
        }
        notify(key, stored)
        return result
    }

    func changes(forKey key: String) -> AsyncStream<PropertyList?> {
        let (stream, continuation) = AsyncStream.makeStream(of: PropertyList?.self, bufferingPolicy: .unbounded)
        let id = lock.withLock { () -> UInt64 in
            nextObserver += 1
            observers[key, default: [:]][nextObserver] = continuation
            return nextObserver
        }
        continuation.onTermination = { [weak self] _ in
            self?.lock.withLock { _ = self?.observers[key]?.removeValue(forKey: id) }
        }
        return stream
    }

    private func notify(_ key: String, _ value: PropertyList?) {
        let listeners = lock.withLock { observers[key].map { Array($0.values) } ?? [] }
        for listener in listeners {
            listener.yield(value)
        }
    }
}

/// A dictionary in memory: isolated per instance, gone with it.
final class InMemoryDefaultsStore: DefaultsStore, @unchecked Sendable {
    // @unchecked: both dictionaries are only touched under the superclass's lock.
    private var values: [String: PropertyList]
    private var registered: [String: PropertyList] = [:]

    init(_ values: [String: PropertyList]) {
        self.values = values
    }

    override var isFake: Bool { true }
    override func read(_ key: String) -> PropertyList? { values[key] ?? registered[key] }
    override func write(_ value: PropertyList?, forKey key: String) { values[key] = value }
    override func registerValues(_ values: [String: PropertyList]) {
        registered.merge(values) { _, new in new }
    }
    override func persistentValues() -> [String: PropertyList] { values }
    override func visibleValues() -> [String: PropertyList] { registered.merging(values) { _, stored in stored } }
    override var description: String {
        "Defaults.inMemory(\(values.count) \(values.count == 1 ? "key" : "keys"))"
    }
}

/// Foundation's `UserDefaults`: the standard domain or a named suite.
final class UserDefaultsStore: DefaultsStore, @unchecked Sendable {
    // @unchecked: `UserDefaults` is thread-safe; this class adds no state of its own.
    private let defaults: UserDefaults
    private let suiteName: String?

    private init(defaults: UserDefaults, suiteName: String?) {
        self.defaults = defaults
        self.suiteName = suiteName
    }

    static let standard = UserDefaultsStore(defaults: .standard, suiteName: nil)

    /// One store per suite name, so every `Defaults.suite(name)` shares one lock.
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

    override func read(_ key: String) -> PropertyList? {
        defaults.object(forKey: key).flatMap(PropertyList.init)
    }

    override func write(_ value: PropertyList?, forKey key: String) {
        if let value {
            defaults.set(value.foundationValue, forKey: key)
        } else {
            defaults.removeObject(forKey: key)
        }
    }

    override func registerValues(_ values: [String: PropertyList]) {
        defaults.register(defaults: values.mapValues(\.foundationValue))
    }

    override func visibleValues() -> [String: PropertyList] {
        defaults.dictionaryRepresentation().compactMapValues(PropertyList.init)
    }

    override func persistentValues() -> [String: PropertyList] {
        let domain = suiteName ?? Bundle.main.bundleIdentifier
        let values = domain.flatMap { defaults.persistentDomain(forName: $0) } ?? defaults.dictionaryRepresentation()
        return values.compactMapValues(PropertyList.init)
    }

    override var description: String {
        suiteName.map { "Defaults.suite(\"\($0)\")" } ?? "Defaults.standard"
    }
}
