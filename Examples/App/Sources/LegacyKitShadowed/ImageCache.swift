// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation

/// A legacy singleton from a Swift 5 module: any thread calls it, and it guards its own
/// state with a lock, as such classes do. One annotation makes it ambient:
/// `@unchecked Sendable`, the promise the lock keeps.
public final class ImageCache: AmbientValue, @unchecked Sendable {
    /// The process's cache.
    public static let shared = ImageCache()
    /// The live value: ``shared``.
    public static var defaultValue: ImageCache { shared }

    private let lock = NSLock()
    private var images: [String: Data] = [:]

    /// An empty cache (a test's own).
    public init() {}

    /// The image stored under `name`, if any.
    public func image(named name: String) -> Data? {
        lock.lock()
        defer { lock.unlock() }
        return images[name]
    }

    /// Stores `data` under `name`.
    public func store(_ data: Data, named name: String) {
        lock.lock()
        defer { lock.unlock() }
        images[name] = data
    }
}

/// Legacy code reading it, on whatever thread it is called.
public func cachedAvatar(for user: String) -> Data? {
    ImageCache.current.image(named: "avatar-\(user)")
}
