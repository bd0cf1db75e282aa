// SPDX-License-Identifier: Apache-2.0

import _AmbientShims

// Scopes without a malloc: each thread keeps its last scope's storage
// ====================================================================
//
// A `withInjected` scope needs a `ContextStorage` (the flattened slot table and the values).
// Allocating and freeing one per scope was most of a scope's cost over raw
// `TaskLocal.withValue` (the benchmark row "floor: allocate and free one object"). So when
// a scope ends and its storage is uniquely referenced — nothing captured the context, no
// `Task { }` inherited it — the storage is emptied (its values destroyed and its parent
// released right there, so values still go away at scope end) and kept in a one-entry
// cache of the running thread. The next scope on that thread that fits reuses it.
//
// A storage that is still referenced is left alone, and freed by whoever drops the last
// reference, as before. The cache holds one storage per thread (the largest seen), released
// when the thread exits. Reads never see the difference: a storage is only reused once no
// binding, context or task can reach it.

/// The running thread's spare ``ContextStorage`` (kept in C, `_ambient_spare`: a
/// thread-local Swift cannot express without a call).
@usableFromInline
enum StorageCache {
    #if os(Windows)
    // No cache on Windows yet (no thread-exit hook to release a spare): every scope
    // allocates, as before.
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
        // The closure releases the thread's spare when the thread exits.
        _ambient_spare_put(Unmanaged.passRetained(storage).toOpaque()) { spare in
            Unmanaged<ContextStorage>.fromOpaque(spare).release()
        }
    }
    #endif
}

extension ContextStorage {
    /// Ends a scope's use of `storage`: if nothing else references it, `empty` destroys its
    /// values and it becomes this thread's spare; either way `storage` is `nil` afterwards.
    @inlinable
    static func recycle(_ storage: inout ContextStorage?, empty: (ContextStorage) -> Void) {
        // `take()` moves the reference out: no retain/release pair (atomic, on a hot path).
        guard isKnownUniquelyReferenced(&storage), let unique = storage.take() else {
            storage = nil
            return
        }
        _ambient_acquire_fence()  // the last holder may have dropped it on another thread
        empty(unique)
        StorageCache.give(unique)
    }

    /// Destroys the values this storage owns and drops its parent: what `deinit` does,
    /// leaving the memory for reuse. (Each value's type opened from its slot; the
    /// spelled-out forms below know them.)
    @usableFromInline
    func empty() {
        destroyOwnedValues()
        emptied()
    }

    /// The header of an empty storage: no slots, no parent (released here).
    @inlinable
    func emptied() {
        withUnsafeMutablePointerToHeader { header in
            header.pointee.count = 0
            header.pointee.ownedCount = 0
            header.pointee.parent = nil
            header.pointee.processWideToken = 0
        }
    }
}

extension ContextStorage {
    /// How many elements the tail has room for (see `ContextHeader.capacity`), read from
    /// the header: `ManagedBuffer.capacity` asks the allocator.
    @inlinable
    var roomInTail: Int {
        withUnsafeMutablePointerToHeader { $0.pointee.capacity }
    }
}
