// SPDX-License-Identifier: Apache-2.0

import _AmbientShims

// Why: entering a scope is making its storage; this file is that stage, and only that.

// The scope path, stage 1 of 3: enter
// ===================================
// Scope.swift's `_scope` calls a `make` here (or its one-, two- or three-value form,
// ArityLadder.swift): the room the values need is counted, a storage is taken (the thread's
// spare, or a new one), the parent's root is copied and each value inserted
// (`ContextWriter`).

extension ContextStorage {
    /// A new storage holding `values` on top of `parent`'s (or `parent` itself when
    /// `values` is empty).
    @inlinable
    static func make<each V: Injectable>(
        _ values: repeat each V,
        over parent: Unmanaged<ContextStorage>?
    ) -> ContextStorage? {
        var owned = 0
        var bytes = 0
        var copies = 0
        repeat tally((each V).self, over: parent, &owned, &bytes, &copies)
        if owned == 0 { return parent?.takeUnretainedValue() }
        return make(owned: owned, bytes: bytes, copies: copies, over: parent) { writer in
            repeat writer.insert(each values)
        }
    }

    /// `parent`'s values, marked as made inside the process-wide level `token`: what a
    /// process-wide scope binds around its body, so that its task, the tasks it starts and
    /// the contexts captured there see the scope's values, and nothing else does.
    static func marked(processWideToken token: UInt64, over parent: ContextStorage?) -> ContextStorage {
        make(owned: 0, bytes: 0, copies: 0, over: parent.map(Unmanaged.passUnretained), processWideToken: token) { _ in
        }
    }

    /// Allocates a storage with room for `owned` values needing at most `bytes` bytes and
    /// `copies` path-copied entries, copies `parent`'s root into it and lets `place` insert
    /// the values. `parent` is borrowed (the caller keeps it alive: a binding, or a context it
    /// holds), and retained once, by the new storage.
    @inlinable
    static func make(
        owned: Int,
        bytes: Int,
        copies: Int,
        over parent: Unmanaged<ContextStorage>?,
        processWideToken: UInt64? = nil,
        place: (inout ContextWriter) -> Void
    ) -> ContextStorage {
        let (structure, capacity) = room(owned: owned, bytes: bytes, copies: copies)

        let token = processWideToken ?? parent?._withUnsafeGuaranteedRef { $0.processWideToken } ?? 0
        let storage: ContextStorage
        if let recycled = StorageCache.take(capacity: capacity) {
            // A storage of this thread's last scope, emptied when that scope ended.
            recycled.withUnsafeMutablePointerToHeader { header in
                header.pointee.parent = parent?.takeUnretainedValue()
                header.pointee.processWideToken = token
            }
            storage = recycled
        } else {
            let buffer = ContextStorage.create(minimumCapacity: capacity) { _ in
                ContextHeader(
                    count: 0, ownedCount: 0, parent: parent?.takeUnretainedValue(), processWideToken: token,
                    capacity: capacity)
            }
            storage = unsafeDowncast(buffer, to: ContextStorage.self)
        }

        // The pointers outlive the closure that gives them: `storage` is held to the end.
        let (header, tail) = storage.withUnsafeMutablePointers { ($0, $1) }
        let root = UnsafeMutableRawPointer(tail)
        var count = 0
        if let parent {
            parent._withUnsafeGuaranteedRef {
                $0.withUnsafeMutablePointers { parentHeader, parentTail in
                    root.copyMemory(from: parentTail, byteCount: ContextIndex.bytes)
                    count = parentHeader.pointee.count
                }
            }
        } else {
            root.initializeMemory(
                as: UnsafeRawPointer.self, repeating: _ambient_empty_leaf_address(), count: ContextIndex.width)
        }
        var writer = ContextWriter(
            root: root,
            owned: UnsafeMutableRawPointer(tail + ContextIndex.width),
            structure: UnsafeMutableRawPointer(tail + (ContextIndex.width &+ owned &* ContextIndex.slotWords)),
            values: UnsafeMutableRawPointer(tail + structure),
            end: UnsafeMutableRawPointer(tail + capacity),
            count: count)
        place(&writer)
        header.pointee.count = writer.count
        header.pointee.ownedCount = writer.stored
        return storage
    }

    /// The words a storage's tail needs for `owned` values taking at most `bytes` bytes and
    /// `copies` path copies: the root, the entries, the leaves and the path copies (the
    /// `structure`), then the values.
    @inlinable
    static func room(owned: Int, bytes: Int, copies: Int) -> (structure: Int, total: Int) {
        let word = MemoryLayout<UInt>.stride
        let leaves = Swift.min(owned, ContextIndex.width)
        let structure =
            ContextIndex.width &+ (owned &+ copies) &* ContextIndex.slotWords &+ leaves &* ContextIndex.width
        return (structure, structure &+ (bytes &+ word &- 1) / word)
    }

    /// The bytes a storage takes with room for `words` words: the object's header (two
    /// words), the context's header and the tail. (The allocator may round it up.)
    static func footprint(words: Int) -> Int {
        let word = MemoryLayout<UInt>.stride
        return 2 &* word &+ MemoryLayout<ContextHeader>.stride &+ words &* word
    }

    /// The bytes a storage made for `values` values of `valueBytes` bytes in all (each
    /// aligned to a word at most) takes, with no path copies: what a scope of them keeps
    /// however many types its parent holds.
    static func footprint(values: Int, valueBytes: Int) -> Int {
        footprint(
            words: room(owned: values, bytes: valueBytes &+ values &* (MemoryLayout<UInt>.alignment &- 1), copies: 0)
                .total)
    }

    /// The bytes this storage takes (see ``footprint(words:)``).
    var footprint: Int { Self.footprint(words: roomInTail) }

    /// The bytes this storage and every ancestor it keeps alive take: what a context holds.
    var chainFootprint: Int {
        var total = 0
        var storage: ContextStorage? = self
        while let current = storage {
            total &+= current.footprint
            storage = current.withUnsafeMutablePointerToHeader { $0.pointee.parent }
        }
        return total
    }

    /// The room to reserve for a `V`: one value's bytes (its size plus the worst-case
    /// padding to align it), and the entries of its bucket in `parent` that inserting it may
    /// copy (those before an entry of `V`'s type: none unless another type shares `V`'s
    /// bucket and was injected after it).
    @inlinable
    static func tally<V: Injectable>(
        _: V.Type, over parent: Unmanaged<ContextStorage>?, _ owned: inout Int, _ bytes: inout Int,
        _ copies: inout Int
    ) {
        owned &+= 1
        bytes &+= reservation(for: V.self)
        if let parent { copies &+= parent._withUnsafeGuaranteedRef { $0.entries(before: V.self) } }
    }

    /// The bytes to reserve for a `V`: its size plus the worst-case padding to align it.
    @inlinable
    static func reservation<V>(for _: V.Type) -> Int {
        MemoryLayout<V>.size &+ MemoryLayout<V>.alignment &- 1
    }

    /// How many entries precede `V`'s in its bucket; 0 when `V` has none.
    @inlinable
    func entries<V: Injectable>(before _: V.Type) -> Int {
        let key = ObjectIdentifier(V.self)
        var entry = firstEntry(of: key)
        var before = 0
        while let found = entry {
            if ObjectIdentifier(found.pointee.type) == key { return before }
            before &+= 1
            entry = found.pointee.next
        }
        return 0
    }
}
