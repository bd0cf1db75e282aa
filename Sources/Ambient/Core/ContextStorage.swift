// SPDX-License-Identifier: Apache-2.0

// Why: one flat object per scope holds the slot table and the values, so a read never walks the nesting.

/// One entry of an ``InjectionContext``: which type, and where its value lives.
@usableFromInline
struct ContextSlot {
    /// The injected value's type; its metadata pointer is the lookup key.
    @usableFromInline let type: any Injectable.Type
    /// The value: inside the storage that owns it (this one or an ancestor, which this one
    /// keeps alive through `parent`).
    @usableFromInline let value: UnsafeRawPointer

    @inlinable
    init(type: any Injectable.Type, value: UnsafeRawPointer) {
        self.type = type
        self.value = value
    }
}

/// The header of a ``ContextStorage``.
@usableFromInline
struct ContextHeader {
    /// Number of slots, owned and inherited.
    @usableFromInline var count: Int
    /// The first `ownedCount` slots hold values that live in this storage's tail.
    @usableFromInline var ownedCount: Int
    /// The context this one was made from; keeps the inherited values alive.
    @usableFromInline var parent: ContextStorage?
    /// The process-wide scope this context was made inside (its level's token), or 0:
    /// such a context sees that scope's values while it is active (see `ProcessWide`).
    /// Inherited from `parent`.
    @usableFromInline var processWideToken: UInt64
    /// How many elements the tail has room for (slots, then values' bytes in slot-sized
    /// units): what a recycled storage can be reused for (see ContextStorage+Recycling.swift).
    @usableFromInline let capacity: Int

    @inlinable
    init(count: Int, ownedCount: Int, parent: ContextStorage?, processWideToken: UInt64, capacity: Int) {
        self.count = count
        self.ownedCount = ownedCount
        self.parent = parent
        self.processWideToken = processWideToken
        self.capacity = capacity
    }
}

/// The immutable, flattened map behind an ``InjectionContext``: ONE object per scope,
/// holding the slot table and the new values themselves (reused from the thread's spare
/// when the previous scope's is free: ContextStorage+Recycling.swift).
///
/// Layout of the tail: `count` slots (newest first: the values this scope injects, last
/// argument first, then every value inherited from `parent` whose type is not re-injected),
/// followed by the bytes of the owned values. A lookup compares metadata pointers over at
/// most one slot per distinct injected type, so its cost does not depend on nesting
/// depth, and it never casts an existential: once the type matched, the pointer is read
/// as that type. (One exception, decided: a type passed twice in *one* call takes a slot
/// per value — the later argument's first, so it is the one found — and both values live
/// until the scope ends; inherited slots are never duplicated, and `forEachSlot` and
/// `injectedTypes` list the type once.)
@usableFromInline
final class ContextStorage: ManagedBuffer<ContextHeader, ContextSlot> {
    // Not `Sendable` to the compiler (`ManagedBuffer` opts out), but safe to share: it is
    // never mutated after `make` returns, and every value it holds is `Sendable` (an
    // `Injectable`). Holders mark their reference `nonisolated(unsafe)` citing this.

    /// A new storage holding `values` on top of `parent`'s (or `parent` itself when
    /// `values` is empty).
    @inlinable
    static func make<each V: Injectable>(
        _ values: repeat each V,
        over parent: ContextStorage?
    ) -> ContextStorage? {
        var owned = 0
        var bytes = 0
        repeat tally((each V).self, &owned, &bytes)
        if owned == 0 { return parent }
        return make(
            owned: owned,
            bytes: bytes,
            over: parent,
            reinjects: { isAmong($0, repeat (each V).self) },
            place: { slots, cursor in
                var index = owned
                repeat storeValue(each values, in: slots, at: &index, bytes: &cursor)
            }
        )
    }

    /// Allocates a storage for `owned` new values needing at most `bytes` bytes, lets
    /// `place` fill slots `0..<owned` (last argument first, so it wins a duplicate) and
    /// the bytes after all slots, then copies the slots of `parent` whose types are not
    /// re-injected after them.
    @inlinable
    static func make(
        owned: Int,
        bytes: Int,
        over parent: ContextStorage?,
        processWideToken: UInt64? = nil,
        reinjects: (any Injectable.Type) -> Bool,
        place: (UnsafeMutablePointer<ContextSlot>, inout UnsafeMutableRawPointer) -> Void
    ) -> ContextStorage {
        var inherited = 0
        if let parent {
            parent.withUnsafeMutablePointers { header, slots in
                for index in 0..<header.pointee.count where !reinjects(slots[index].type) {
                    inherited += 1
                }
            }
        }
        let count = owned + inherited
        let slotStride = MemoryLayout<ContextSlot>.stride
        let capacity = count + (bytes + slotStride - 1) / slotStride

        let token = processWideToken ?? parent?.processWideToken ?? 0
        let storage: ContextStorage
        if let recycled = StorageCache.take(capacity: capacity) {
            // A storage of this thread's last scope, emptied when that scope ended.
            recycled.withUnsafeMutablePointerToHeader { header in
                header.pointee.count = count
                header.pointee.ownedCount = owned
                header.pointee.parent = parent
                header.pointee.processWideToken = token
            }
            storage = recycled
        } else {
            let buffer = ContextStorage.create(minimumCapacity: capacity) { _ in
                ContextHeader(
                    count: count, ownedCount: owned, parent: parent, processWideToken: token, capacity: capacity)
            }
            storage = unsafeDowncast(buffer, to: ContextStorage.self)
        }

        storage.withUnsafeMutablePointerToElements { slots in
            var cursor = UnsafeMutableRawPointer(slots + count)
            place(slots, &cursor)
            guard let parent else { return }
            var next = owned
            parent.withUnsafeMutablePointers { header, parentSlots in
                for index in 0..<header.pointee.count where !reinjects(parentSlots[index].type) {
                    UnsafeMutableRawPointer(slots + next).initializeMemory(as: ContextSlot.self, to: parentSlots[index])
                    next += 1
                }
            }
        }
        return storage
    }

    /// `parent`'s values, marked as made inside the process-wide level `token`: what a
    /// process-wide scope binds around its body, so that its task, the tasks it starts and
    /// the contexts captured there see the scope's values, and nothing else does.
    static func marked(processWideToken token: UInt64, over parent: ContextStorage?) -> ContextStorage {
        make(owned: 0, bytes: 0, over: parent, processWideToken: token, reinjects: { _ in false }, place: { _, _ in })
    }

    /// The process-wide level this context was made inside, or 0.
    @usableFromInline
    var processWideToken: UInt64 {
        withUnsafeMutablePointerToHeader { $0.pointee.processWideToken }
    }

    /// How many types this context injects a value for.
    var slotCount: Int {
        withUnsafeMutablePointerToHeader { $0.pointee.count }
    }

    /// The value injected for `V`, if any.
    @inlinable
    func value<V: Injectable>(of _: V.Type) -> V? {
        address(of: V.self)?.assumingMemoryBound(to: V.self).pointee
    }

    /// Where the value injected for `V` lives, if any: valid as long as this storage is.
    @inlinable
    func address<V: Injectable>(of _: V.Type) -> UnsafeRawPointer? {
        withUnsafeMutablePointers { header, slots in
            // Pointer walk, no index arithmetic to overflow-check: this is the read's loop.
            let key = ObjectIdentifier(V.self)
            var slot = UnsafePointer(slots)
            let end = slot + header.pointee.count
            while slot < end {
                if ObjectIdentifier(slot.pointee.type) == key { return slot.pointee.value }
                slot += 1
            }
            return nil
        }
    }

    /// Calls `body` with each effective slot, innermost first.
    @usableFromInline
    func forEachSlot(_ body: (ContextSlot) -> Void) {
        withUnsafeMutablePointers { header, slots in
            var seen: Set<ObjectIdentifier> = []
            for index in 0..<header.pointee.count
            where seen.insert(ObjectIdentifier(slots[index].type)).inserted {
                body(slots[index])
            }
        }
    }

    deinit {
        destroyOwnedValues()
    }

    /// Destroys the values this storage owns, each type opened from its slot (`deinit`, and
    /// `empty()` when the storage is kept for reuse). The slots themselves are trivial (a
    /// metatype and a pointer): nothing to destroy.
    @usableFromInline
    func destroyOwnedValues() {
        withUnsafeMutablePointers { header, slots in
            for index in 0..<header.pointee.ownedCount {
                Self.destroyValue(slots[index].type, at: slots[index].value)
            }
        }
    }
}

// MARK: - Helpers of `make` and `deinit`, generic over each value's type

extension ContextStorage {
    /// The bytes to reserve for a `V`: its size plus the worst-case padding to align it.
    @inlinable
    static func reservation<V>(for _: V.Type) -> Int {
        MemoryLayout<V>.size + MemoryLayout<V>.alignment - 1
    }

    /// Counts one value of type `V` and the bytes to reserve for it.
    @inlinable
    static func tally<V>(_: V.Type, _ owned: inout Int, _ bytes: inout Int) {
        owned += 1
        bytes += reservation(for: V.self)
    }

    /// Copies `value` to the next suitably aligned address at or after `cursor` and fills the
    /// slot before `index` with it. The slot's key is the static type `V`, the type lookups
    /// ask for (so a subclass instance injected as its base class is found as the base).
    @inlinable
    static func storeValue<V: Injectable>(
        _ value: V,
        in slots: UnsafeMutablePointer<ContextSlot>,
        at index: inout Int,
        bytes cursor: inout UnsafeMutableRawPointer
    ) {
        index -= 1
        let address = cursor.alignedUp(for: V.self)
        address.initializeMemory(as: V.self, to: value)
        cursor = address + MemoryLayout<V>.size
        // Raw initialisation binds the slot's memory to `ContextSlot` (a recycled storage may
        // have held a value's bytes there).
        UnsafeMutableRawPointer(slots + index).initializeMemory(
            as: ContextSlot.self, to: ContextSlot(type: V.self, value: UnsafeRawPointer(address)))
    }

    /// Whether `type` is one of `types`.
    @inlinable
    static func isAmong<each V>(_ type: any Injectable.Type, _ types: repeat (each V).Type) -> Bool {
        let key = ObjectIdentifier(type)
        for candidate in repeat each types {
            if ObjectIdentifier(candidate) == key { return true }
        }
        return false
    }

    /// Destroys the `V` at `address`: specialised where `V` is known (the spelled-out
    /// `empty` forms), opened from a slot otherwise. The memory was bound to `V` when the
    /// value was stored (`storeValue`'s raw initialisation).
    @inlinable
    static func destroyValue<V: Injectable>(_: V.Type, at address: UnsafeRawPointer) {
        UnsafeMutableRawPointer(mutating: address).assumingMemoryBound(to: V.self).deinitialize(count: 1)
    }

    /// Destroys the value of `slot`, which the caller knows holds a `V` (the spelled-out
    /// `empty` forms); a debug build checks the slot says so.
    @inlinable
    static func destroyValue<V: Injectable>(_: V.Type, of slot: ContextSlot) {
        assert(
            ObjectIdentifier(slot.type) == ObjectIdentifier(V.self),
            "ContextStorage.empty: slot holds a \(slot.type), not the \(V.self) its make stored")
        destroyValue(V.self, at: slot.value)
    }
}
