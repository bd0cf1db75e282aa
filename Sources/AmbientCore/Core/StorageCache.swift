// SPDX-License-Identifier: Apache-2.0

import _AmbientShims

// Why: a scope takes its storage from here and its end gives it back: no malloc per scope.

// Scopes without a malloc: each thread keeps its last scope's storage
// ====================================================================
//
// A `withInjected` scope needs a `ContextStorage` (the index and the values).
// Allocating and freeing one per scope was most of a scope's cost over raw
// `TaskLocal.withValue` (the benchmark row "floor: allocate and free one object"). So when
// a scope ends and its storage is uniquely referenced — nothing captured the context, no
// `Task { }` inherited it — the storage is emptied (its values destroyed and its parent
// released right there, so values still go away at scope end) and kept in a one-entry
// cache of the running thread. The next scope on that thread that fits reuses it.
//
// A storage that is still referenced is left alone, and freed by whoever drops the last
// reference. The cache holds one storage per thread (the largest seen), released
// when the thread exits. Reads never see the difference: a storage is only reused once no
// binding, context or task can reach it.

/// The running thread's spare ``ContextStorage`` (kept in C, `_ambient_spare`: a
/// thread-local Swift cannot express without a call).
@usableFromInline
enum StorageCache {
    #if os(Windows)
    // No cache on Windows yet (no thread-exit hook to release a spare): every scope
    // allocates its storage.
    @inlinable
    static func take(capacity: Int) -> ContextStorage? { nil }

    @inlinable
    static func give(_ storage: consuming ContextStorage) {}
    #else
    /// This thread's spare storage, if it has one with room for `capacity` elements; the
    /// caller owns it from here on.
    @inlinable
    static func take(capacity: Int) -> ContextStorage? {
        guard let raw = _ambient_spare_peek(),
            Unmanaged<ContextStorage>.fromOpaque(raw)._withUnsafeGuaranteedRef({ $0.roomInTail }) >= capacity
        else { return nil }
        _ = _ambient_spare_take()
        return Unmanaged<ContextStorage>.fromOpaque(raw).takeRetainedValue()
    }

    /// Keeps the emptied `storage` as this thread's spare (the larger of it and the one
    /// already kept).
    @inlinable
    static func give(_ storage: consuming ContextStorage) {
        if let raw = _ambient_spare_peek() {
            let kept = Unmanaged<ContextStorage>.fromOpaque(raw)
            if kept._withUnsafeGuaranteedRef({ $0.roomInTail }) >= storage.roomInTail { return }
            _ = _ambient_spare_take()
            kept.release()
        }
        // The reference moves into the thread-local: `storage`'s last use, so the optimiser
        // pairs the retain with the release at its end and drops both. The closure releases
        // the thread's spare when the thread exits.
        let spare = Unmanaged.passRetained(storage).toOpaque()
        _ambient_spare_put(spare) { spare in
            Unmanaged<ContextStorage>.fromOpaque(spare).release()
        }
    }
    #endif
}
