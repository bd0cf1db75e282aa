// SPDX-License-Identifier: Apache-2.0

import Foundation

// Why: `UserDefaults.standard` is the singleton legacy code reads most; this is its ambient spelling.

/// The ambient key-value store: the `UserDefaults` surface you know, with typed keys,
/// atomic updates, change streams and an in-memory fake.
///
/// ```swift
/// func makeWidget() -> String {
///     (Defaults.current.string(forKey: "defaultColour") ?? "") + "Widget"
/// }
///
/// extension Defaults.Key<Int> {
///     static var currentReminderId: Self { Self("currentReminderId", default: 0) }
/// }
///
/// func nextReminderId() -> Int {
///     Defaults.current.update(.currentReminderId) { $0 + 1 }   // atomic: no lost increments
/// }
///
/// // In a test:
/// let defaults = Defaults.inMemory(["defaultColour": "Red"])
/// withInjected(defaults) {
///     #expect(makeWidget() == "RedWidget")
///     #expect(nextReminderId() == 1)
/// }
/// #expect(defaults.snapshot == ["defaultColour": "Red", "currentReminderId": 1])
/// ```
///
/// ## Bad input
/// Only property-list values can be stored. `set(_:forKey:)` (the `Any?` form) does not
/// throw, as `UserDefaults`' does not: for anything else it leaves the store unchanged,
/// logs the problem (naming the key and the type) and stops a debug build.
/// ``set(checking:forKey:)`` throws ``InvalidValue`` instead. Reading a key as the wrong type returns `nil` (or `0`, `false`, the key's
/// default) — it never crashes.
///
/// ## Atomicity and observation
/// Writes made through Ambient are serialised per store (``standard``, each ``suite(_:)``
/// name, each ``inMemory(_:)`` instance), so ``update(_:_:)`` cannot lose a concurrent
/// write made through Ambient, and ``changes(forKey:)`` reports each of them. Writes made
/// to the same `UserDefaults` behind Ambient's back are neither serialised nor reported.
public struct Defaults: AmbientValue, CustomStringConvertible {
    let store: any DefaultsStore

    init(store: any DefaultsStore) {
        self.store = store
    }

    // MARK: - Stores

    /// `UserDefaults.standard`.
    public static let standard = Defaults(store: UserDefaultsStore.standard)

    /// The standard store: what ``AmbientValue/current`` returns when nothing is injected.
    public static var defaultValue: Defaults {
        standard
    }

    /// A fresh store in memory holding `values`: thread-safe, isolated from every other
    /// instance, gone with its last copy. Inspect it with ``snapshot``.
    public static func inMemory(_ values: [String: PropertyList] = [:]) -> Defaults {
        Defaults(store: InMemoryDefaultsStore(values))
    }

    /// The `UserDefaults` suite `name`, or `nil` for a name Darwin's `UserDefaults` refuses
    /// or that would not name a suite of its own: see ``suite(validating:)`` for the rules,
    /// which hold on every platform.
    public static func suite(_ name: String) -> Defaults? {
        try? suite(validating: name)
    }

    /// The `UserDefaults` suite `name`, or a ``InvalidSuiteName`` error that says what is
    /// wrong with the name. Refused on every platform, as Darwin refuses them or because
    /// they would escape the suite's own file:
    ///
    /// - the empty name, and names of white space only;
    /// - `NSGlobalDomain`, `NSArgumentDomain`, `NSRegistrationDomain`, and the app's own
    ///   bundle identifier (Darwin's `UserDefaults(suiteName:)` returns `nil` for these);
    /// - path-like names: containing `/`, `\` or a NUL character, or starting with `.`;
    /// - names longer than 249 bytes in UTF-8 (the suite's `.plist` file name must fit in
    ///   the 255 bytes a file name may have).
    ///
    /// ```swift
    /// let shared = try Defaults.suite(validating: "group.com.example.app")
    /// #expect(throws: Defaults.InvalidSuiteName.self) { try Defaults.suite(validating: "../x") }
    /// ```
    public static func suite(validating name: String) throws(InvalidSuiteName) -> Defaults {
        if let problem = InvalidSuiteName.problem(with: name) { throw InvalidSuiteName(name: name, problem: problem) }
        guard let store = UserDefaultsStore.suite(name) else {
            throw InvalidSuiteName(name: name, problem: "Foundation's UserDefaults refused it")
        }
        return Defaults(store: store)
    }

    /// A suite name ``suite(validating:)`` refuses, and why.
    public struct InvalidSuiteName: Error, Equatable, CustomStringConvertible {
        /// The name as given.
        public let name: String
        /// What is wrong with it.
        public let problem: String

        /// `Defaults.suite("../x"): the name is path-like (…)`.
        public var description: String {
            "Defaults.suite(\"\(name)\"): \(problem). No suite was opened."
        }

        /// The names Darwin's `UserDefaults(suiteName:)` refuses besides the bundle identifier.
        static let reservedNames: Set<String> = ["NSGlobalDomain", "NSArgumentDomain", "NSRegistrationDomain"]

        /// Why `name` cannot be a suite's, or `nil` if it can.
        static func problem(with name: String) -> String? {
            if name.allSatisfy(\.isWhitespace) {
                return name.isEmpty ? "the name is empty" : "the name is only white space"
            }
            if reservedNames.contains(name) {
                return "\(name) is a domain of UserDefaults itself, not a suite (Darwin refuses it)"
            }
            if let bundle = Bundle.main.bundleIdentifier, name == bundle {
                return "it is the app's own bundle identifier, the standard domain (Darwin refuses it)"
            }
            if name.contains("/") || name.contains("\\") || name.contains("\0") || name.hasPrefix(".") {
                return
                    "the name is path-like (it contains / or \\ or NUL, or starts with .), and would escape the suite's own file"
            }
            if name.utf8.count > 249 {
                return "the name is \(name.utf8.count) bytes long; at most 249 fit in the suite's file name"
            }
            return nil
        }
    }

    /// The values stored (not those merely registered), for assertions.
    public var snapshot: [String: PropertyList] {
        store.snapshot
    }

    /// Which store this is.
    public var description: String {
        store.description
    }

    // MARK: - Reading, as UserDefaults does

    /// The stored (or registered) value for `key` as a Foundation value, or `nil`.
    public func object(forKey key: String) -> Any? {
        store.value(forKey: key)?.foundationValue
    }

    /// The value for `key` as a ``PropertyList``, or `nil`.
    public func propertyList(forKey key: String) -> PropertyList? {
        store.value(forKey: key)
    }

    /// The string for `key`; a number is returned as its text, as `-[NSNumber stringValue]`
    /// gives it (`true` is "1", 2.0 is "2"); otherwise `nil`.
    public func string(forKey key: String) -> String? {
        store.value(forKey: key)?.userDefaultsString
    }

    /// The integer for `key`, converted as Darwin's `UserDefaults` converts it: `true` is 1,
    /// a double is truncated (2.7 is 2), a string gives its leading integer (" 42abc" is
    /// 42); 0 when missing or not a number. The full table is in <doc:MigratingFromASwizzledSingleton>.
    public func integer(forKey key: String) -> Int {
        store.value(forKey: key)?.userDefaultsInteger ?? 0
    }

    /// The number for `key`, converted as Darwin's `UserDefaults` converts it: any number,
    /// `true` is 1, a string gives its leading number; 0 when missing or not a number.
    public func double(forKey key: String) -> Double {
        store.value(forKey: key)?.userDefaultsDouble ?? 0
    }

    /// The number for `key` as a `Float`, converted as ``double(forKey:)`` converts it.
    public func float(forKey key: String) -> Float {
        Float(double(forKey: key))
    }

    /// The stored (or registered) value for `key`, as ``object(forKey:)`` returns it: the
    /// key-value-coding spelling some legacy code reads `UserDefaults` with.
    public func value(forKey key: String) -> Any? {
        object(forKey: key)
    }

    /// The Boolean for `key`, converted as Darwin's `UserDefaults` converts it: any non-zero
    /// number (2.5 and 0.5 included) is true; a string is true when it starts with Y, y,
    /// T, t or a digit 1–9 ("YES", "true", "1"); `false` when missing or anything else.
    public func bool(forKey key: String) -> Bool {
        store.value(forKey: key)?.userDefaultsBool ?? false
    }

    /// The data for `key`, or `nil`.
    public func data(forKey key: String) -> Data? {
        store.value(forKey: key).flatMap(Data.init(propertyList:))
    }

    /// The URL for `key`, read as `UserDefaults.url(forKey:)` reads it: a URL stored by
    /// ``set(_:forKey:)-(URL?,_)`` or by `UserDefaults` (an archived `NSURL`), or a path string as
    /// a file URL with `~` expanded; `nil` if missing or anything else.
    public func url(forKey key: String) -> URL? {
        store.value(forKey: key).flatMap(URL.init(propertyList:))
    }

    /// The array for `key`, or `nil`.
    public func array(forKey key: String) -> [Any]? {
        guard case .array(let values)? = store.value(forKey: key) else { return nil }
        return values.map(\.foundationValue)
    }

    /// The array of strings for `key`, or `nil` if it is missing or holds anything else.
    public func stringArray(forKey key: String) -> [String]? {
        store.value(forKey: key).flatMap([String].init(propertyList:))
    }

    /// The dictionary for `key`, or `nil`.
    public func dictionary(forKey key: String) -> [String: Any]? {
        guard case .dictionary(let values)? = store.value(forKey: key) else { return nil }
        return values.mapValues(\.foundationValue)
    }

    // MARK: - Writing, as UserDefaults does

    /// Stores `value` for `key`; `nil` removes it. As `UserDefaults.set(_:forKey:)`, it
    /// does not throw, so legacy code ports by changing one word.
    ///
    /// A value that is not a property list is not stored (the store is unchanged): it is
    /// reported through `Logger.current` at error level, naming the key and the type, and
    /// a debug build stops at an `assertionFailure`, as `UserDefaults` raises an exception.
    /// To handle the error yourself, use ``set(checking:forKey:)``.
    ///
    /// ```swift
    /// Defaults.current.set(["a", "b"], forKey: "recent")
    /// Defaults.current.set(nil as Date?, forKey: "lastSync")   // removes the key
    /// ```
    public func set(_ value: Any?, forKey key: String) {
        do throws(InvalidValue) {
            try set(checking: value, forKey: key)
        } catch {
            Self.report(error)
        }
    }

    /// Stores `value` for `key`; `nil` removes it. Throws ``InvalidValue`` — and stores
    /// nothing — if `value` is not a property-list value.
    ///
    /// ```swift
    /// try Defaults.current.set(checking: payload, forKey: "cache")
    /// ```
    public func set(checking value: Any?, forKey key: String) throws(InvalidValue) {
        guard let value else { return removeObject(forKey: key) }
        guard let checked = PropertyList(value) else {
            throw InvalidValue(key: key, type: "\(type(of: value))")
        }
        store.set(checked, forKey: key)
    }

    /// Logs `error` and, in a debug build, stops: what the non-throwing forms do with a value
    /// that is not a property list.
    private static func report(_ error: InvalidValue) {
        Logger.current.error("\(error)")
        assertionFailure("\(error)")
    }

    /// Stores a property-list value (no validation needed, so nothing to throw).
    public func set(_ value: PropertyList, forKey key: String) {
        store.set(value, forKey: key)
    }

    /// Stores a string.
    public func set(_ value: String, forKey key: String) { store.set(.string(value), forKey: key) }
    /// Stores an integer.
    public func set(_ value: Int, forKey key: String) { store.set(.integer(value), forKey: key) }
    /// Stores a number.
    public func set(_ value: Double, forKey key: String) { store.set(.double(value), forKey: key) }
    /// Stores a Boolean.
    public func set(_ value: Bool, forKey key: String) { store.set(.bool(value), forKey: key) }
    /// Stores data.
    public func set(_ value: Data, forKey key: String) { store.set(.data(value), forKey: key) }
    /// Stores a date.
    public func set(_ value: Date, forKey key: String) { store.set(.date(value), forKey: key) }
    /// Stores a single-precision number, kept as one (its text is "12.34", as `UserDefaults`
    /// gives it; ``double(forKey:)`` widens it).
    public func set(_ value: Float, forKey key: String) { store.set(.float(value), forKey: key) }
    /// Stores a URL as `UserDefaults.set(_:forKey:)` does on Apple platforms (a keyed archive
    /// of the `NSURL`, which legacy code's `UserDefaults` reads back); `nil` removes the key.
    public func set(_ value: URL?, forKey key: String) {
        store.set(value?.propertyList, forKey: key)
    }

    /// Removes the stored value for `key` (a registered default, if any, shows through).
    public func removeObject(forKey key: String) {
        store.set(nil, forKey: key)
    }

    /// Registers fallback values, returned for keys with no stored value; they are not
    /// stored. A `URL` is registered as ``set(_:forKey:)-(URL?,_)`` stores one, so
    /// ``url(forKey:)`` returns it. As `UserDefaults.register(defaults:)`, it does not throw:
    /// every property-list value is registered, and each value that is not one is left out
    /// and reported as the `Any?` form of `set(_:forKey:)` reports it — one bad value never
    /// costs the others. ``register(checking:)`` registers all or nothing, and throws.
    public func register(defaults: [String: Any]) {
        var checked: [String: PropertyList] = [:]
        for (key, value) in defaults {
            do throws(InvalidValue) {
                checked[key] = try Self.registrable(value, forKey: key)
            } catch {
                Self.report(error)
            }
        }
        store.register(checked)
    }

    /// Registers fallback values, or throws ``InvalidValue`` — and registers nothing — if
    /// any value is neither a property-list value nor a `URL`.
    public func register(checking defaults: [String: Any]) throws(InvalidValue) {
        var checked: [String: PropertyList] = [:]
        for (key, value) in defaults {
            checked[key] = try Self.registrable(value, forKey: key)
        }
        store.register(checked)
    }

    /// `value` as registration keeps it: a property list, or a URL in its stored form.
    private static func registrable(_ value: Any, forKey key: String) throws(InvalidValue) -> PropertyList {
        if let url = value as? URL { return url.propertyList }
        guard let checked = PropertyList(value) else { throw InvalidValue(key: key, type: "\(type(of: value))") }
        return checked
    }

    /// Every value a read can see, registered ones included (stored ones win), as
    /// Foundation values: `UserDefaults.dictionaryRepresentation()`.
    public func dictionaryRepresentation() -> [String: Any] {
        store.everything.mapValues(\.foundationValue)
    }

    /// Does nothing and returns `true`: every write is already visible to every reader.
    /// Here so legacy code that calls `UserDefaults.synchronize()` ports unchanged.
    @discardableResult
    public func synchronize() -> Bool {
        true
    }

    // MARK: - Typed keys

    /// A typed key: its name in the store and the value to read when nothing usable is
    /// stored there.
    ///
    /// ```swift
    /// extension Defaults.Key<Theme> {
    ///     static var theme: Self { Self("theme", default: .light) }
    /// }
    /// Defaults.current[.theme] = .dark
    /// ```
    public struct Key<Value: DefaultsValue>: Sendable {
        /// The key's name in the store.
        public let name: String
        /// What reading returns when the key is missing or holds something that does not
        /// convert to `Value`.
        public let defaultValue: Value

        /// A key named `name` reading `defaultValue` when unset.
        public init(_ name: String, default defaultValue: Value) {
            self.name = name
            self.defaultValue = defaultValue
        }
    }

    /// The value for `key`, or its default; setting stores it.
    public subscript<Value>(key: Key<Value>) -> Value {
        get { store.value(forKey: key.name).flatMap(Value.init(propertyList:)) ?? key.defaultValue }
        nonmutating set { store.set(newValue.propertyList, forKey: key.name) }
    }

    /// Atomically replaces the value for `key` with `transform(current)` and returns the new
    /// value: concurrent updates through Ambient never lose one another's writes.
    ///
    /// ```swift
    /// let id = Defaults.current.update(.currentReminderId) { $0 + 1 }
    /// ```
    @discardableResult
    public func update<Value>(_ key: Key<Value>, _ transform: (Value) throws -> Value) rethrows -> Value {
        try store.update(key.name) { stored in
            let current = stored.flatMap(Value.init(propertyList:)) ?? key.defaultValue
            let updated = try transform(current)
            return (updated.propertyList, updated)
        }
    }

    /// Removes the stored value for `key`.
    public func removeValue<Value>(for key: Key<Value>) {
        store.set(nil, forKey: key.name)
    }

    // MARK: - Observation

    /// Every later change to `key` made through Ambient on this store: the new value, or
    /// `nil` when it was removed. The stream ends when the consuming task does.
    ///
    /// ```swift
    /// for await colour in Defaults.current.changes(forKey: "defaultColour") { redraw(colour) }
    /// ```
    public func changes(forKey key: String) -> AsyncStream<PropertyList?> {
        store.changes(forKey: key)
    }

    /// Every later change to a typed key: its new value (the key's default when removed
    /// or unreadable).
    public func changes<Value>(for key: Key<Value>) -> AsyncMapSequence<AsyncStream<PropertyList?>, Value> {
        store.changes(forKey: key.name).map { $0.flatMap(Value.init(propertyList:)) ?? key.defaultValue }
    }

    // MARK: - Errors

    /// Thrown when asked to store a value that is not a property list. Nothing was stored.
    public struct InvalidValue: Error, Equatable, CustomStringConvertible {
        /// The key the value was for.
        public let key: String
        /// The rejected value's type.
        public let type: String

        /// The error for a value of type `type` rejected for `key`.
        public init(key: String, type: String) {
            self.key = key
            self.type = type
        }

        /// What went wrong and what would work.
        public var description: String {
            "Defaults: cannot store a value of type \(type) for key \"\(key)\": only property-list values "
                + "(String, numbers, Bool, Data, Date, and arrays or String-keyed dictionaries of them) "
                + "can be stored. Nothing was written."
        }
    }
}
