// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: `let defaults = UserDefaults.standard` in an object made before a test keeps whatever
// store was current then; the one-file port's accessor hands out this one, which never keeps one.

/// ``Defaults/followingCurrent``'s store: each call goes to the store `Defaults.current` has
/// where it is made (``Defaults/standard``'s where that is this one).
final class FollowingDefaultsStore: DefaultsStore {
    static let shared = FollowingDefaultsStore()

    private init() {}

    private var target: any DefaultsStore {
        let current = Defaults.current.store
        if current === self { return UserDefaultsStore.standard }
        if _slowPath(RunningTest.isLoaded), current.isFake {
            _ = StaticInitialiserReads.report("UserDefaults.standard", of: Defaults.self, keepsLive: false)
        }
        return current
    }

    /// Never kept from an earlier scope, so never reported as pinned: what it reaches is current.
    var isFake: Bool { false }

    func read(_ key: String) -> PropertyList? { target.read(key) }
    func write(_ value: PropertyList?, forKey key: String) { target.write(value, forKey: key) }
    func registerValues(_ values: [String: PropertyList]) { target.registerValues(values) }
    func persistentValues() -> [String: PropertyList] { target.persistentValues() }
    func visibleValues() -> [String: PropertyList] { target.visibleValues() }

    var description: String { "Defaults.followingCurrent" }
}
