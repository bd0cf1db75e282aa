// SPDX-License-Identifier: Apache-2.0

import _AmbientShims

// Why: a scope ends by handing its storage back, so the next scope on the thread needs no malloc.

// The scope path, stage 3 of 3: end
// =================================
// After the body returns or throws, Scope.swift's `_scope` ends the scope here (`recycle`):
// when nothing else references its storage, the values it owns are destroyed, its parent is
// released, and it becomes the thread's spare (StorageCache.swift), which the next scope's
// stage 1 (ContextStorage+Making.swift) takes.

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
            header.pointee.flatCount = 0
            header.pointee.ownedCount = 0
            if let parent = header.pointee.parent {
                header.pointee.parent = nil
                parent.release()
            }
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
