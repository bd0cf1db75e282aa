// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: ported code calls `UserDefaults`' methods by name; these mirror them, one for one.

/// The `UserDefaults` surface, mirrored so ported code changes one word
/// (`UserDefaults.standard` → `Defaults.current`) and nothing else: the same names, the
/// same argument labels, the same conversions as Darwin's `UserDefaults` (see
/// ``PropertyList``).
extension Defaults {
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
        store.value(forKey: key)?.userDefaultsData
    }

    /// The URL for `key`, read as `UserDefaults.url(forKey:)` reads it: a URL stored by
    /// ``set(_:forKey:)-(URL?,_)`` or by `UserDefaults` (an archived `NSURL`), or a path string as
    /// a file URL with `~` expanded; `nil` if missing or anything else.
    public func url(forKey key: String) -> URL? {
        store.value(forKey: key)?.userDefaultsURL
    }

    /// The array for `key`, or `nil`.
    public func array(forKey key: String) -> [Any]? {
        guard case .array(let values)? = store.value(forKey: key) else { return nil }
        return values.map(\.foundationValue)
    }

    /// The array of strings for `key`, or `nil` if it is missing or holds anything else.
    public func stringArray(forKey key: String) -> [String]? {
        store.value(forKey: key)?.userDefaultsStringArray
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
        store.set(value.map(PropertyList.init(url:)), forKey: key)
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
        store.registerValues(checked)
    }

    /// Registers fallback values, or throws ``InvalidValue`` — and registers nothing — if
    /// any value is neither a property-list value nor a `URL`.
    public func register(checking defaults: [String: Any]) throws(InvalidValue) {
        var checked: [String: PropertyList] = [:]
        for (key, value) in defaults {
            checked[key] = try Self.registrable(value, forKey: key)
        }
        store.registerValues(checked)
    }

    /// `value` as registration keeps it: a property list, or a URL in its stored form.
    private static func registrable(_ value: Any, forKey key: String) throws(InvalidValue) -> PropertyList {
        if let url = value as? URL { return PropertyList(url: url) }
        guard let checked = PropertyList(value) else { throw InvalidValue(key: key, type: "\(type(of: value))") }
        return checked
    }

    /// Every value a read can see, registered ones included (stored ones win), as
    /// Foundation values: `UserDefaults.dictionaryRepresentation()`.
    public func dictionaryRepresentation() -> [String: Any] {
        store.visibleValues().mapValues(\.foundationValue)
    }

    /// Does nothing and returns `true`: every write is already visible to every reader.
    /// Here so legacy code that calls `UserDefaults.synchronize()` ports unchanged.
    @discardableResult
    public func synchronize() -> Bool {
        true
    }
}
