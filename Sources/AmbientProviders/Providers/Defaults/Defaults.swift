// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: `UserDefaults.standard` is the singleton legacy code reads most; this is its ambient spelling.

/// The ambient key-value store: the `UserDefaults` surface you know, and an in-memory
/// fake for tests.
///
/// ```swift
/// func makeWidget() -> String {
///     (Defaults.current.string(forKey: "defaultColour") ?? "") + "Widget"
/// }
///
/// func rememberColour(_ colour: String) {
///     Defaults.current.set(colour, forKey: "defaultColour")
/// }
///
/// // In a test:
/// let defaults = Defaults.inMemory(["defaultColour": "Red"])
/// withInjected(defaults) {
///     #expect(makeWidget() == "RedWidget")
///     rememberColour("Blue")
/// }
/// #expect(defaults.snapshot == ["defaultColour": "Blue"])
/// ```
///
/// ## Bad input
/// Only property-list values can be stored. `set(_:forKey:)` (the `Any?` form) does not
/// throw, as `UserDefaults`' does not: for anything else it leaves the store unchanged,
/// logs the problem (naming the key and the type) and stops a debug build.
/// ``set(checking:forKey:)`` throws ``InvalidValue`` instead. Reading a key as the wrong
/// type returns `nil` (or `0`, `false`) — it never crashes.
///
/// ## Thread safety
/// Every store is safe to read and write from any thread, as Darwin's `UserDefaults` is
/// (Linux's loses writes made from several threads at once; Ambient serialises its calls). A
/// read-modify-write (read a counter, write it back plus one) is two calls, as it is on
/// `UserDefaults`: code that needs it atomic holds its own lock across both
/// (<doc:MigratingFromASwizzledSingleton> shows how).
public struct Defaults: AmbientValue, CustomStringConvertible {
    let store: any DefaultsStore

    init(store: any DefaultsStore) {
        self.store = store
    }

    // MARK: - Stores

    /// `UserDefaults.standard`.
    public static let standard = Defaults(store: UserDefaultsStore.standard)

    /// The defaults ``AmbientValue/current`` is wherever this value is used, not where it was taken: each
    /// read and write goes to the current store. What the one-file port's
    /// `UserDefaults.standard` is, so that defaults kept in a property
    /// (`let defaults = UserDefaults.standard`, made before a test's scope) read and write the
    /// store the running test injected, not the first test's or the real one.
    ///
    /// Injected itself, it is ``standard``.
    public static let followingCurrent = Defaults(store: FollowingDefaultsStore.shared)

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
        store.persistentValues()
    }

    /// Which store this is.
    public var description: String {
        store.description
    }

    // The `UserDefaults` surface (reading and writing as `UserDefaults` does) is in
    // Defaults+UserDefaultsSurface.swift.

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
