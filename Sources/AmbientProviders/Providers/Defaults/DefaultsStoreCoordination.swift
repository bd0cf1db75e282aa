// SPDX-License-Identifier: Apache-2.0

import AmbientCore
// Why: every store locks and notifies the same way, whatever holds its values.

/// What every ``DefaultsStore`` has besides its values: the lock its operations take, and
/// the observers of ``Defaults/changes(forKey:)`` that each write made through it notifies.
final class DefaultsStoreCoordination: @unchecked Sendable {
    // @unchecked: `observers` and `nextObserver` are only touched with `lock` held.

    /// Recursive: `update` runs the caller's transform with the lock held (that is what makes
    /// it atomic), and a transform may read the same store (`Defaults.current.string(…)`).
    let lock = Lock(recursive: true)
    private var observers: [String: [UInt64: AsyncStream<PropertyList?>.Continuation]] = [:]
    private var nextObserver: UInt64 = 0

    /// A stream of the values written for `key` from now on (`nil`: removed).
    func changes(forKey key: String) -> AsyncStream<PropertyList?> {
        let (stream, continuation) = AsyncStream.makeStream(of: PropertyList?.self, bufferingPolicy: .unbounded)
        let id = lock.withLock { () -> UInt64 in
            nextObserver += 1
            observers[key, default: [:]][nextObserver] = continuation
            return nextObserver
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.lock.withLock { _ = self.observers[key]?.removeValue(forKey: id) }
        }
        return stream
    }

    /// Tells the observers of `key` it now holds `value`. Called without the lock held.
    func notify(_ key: String, _ value: PropertyList?) {
        let listeners = lock.withLock { observers[key].map { Array($0.values) } ?? [] }
        for listener in listeners {
            listener.yield(value)
        }
    }
}
