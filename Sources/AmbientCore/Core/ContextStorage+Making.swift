// SPDX-License-Identifier: Apache-2.0

import _AmbientShims

// Why: entering a scope is making its storage; this file is that stage, and only that.

// The scope path, stage 1 of 3: enter
// ===================================
// Scope.swift's `_scope` calls a `make` here (or its one-, two- or three-value form,
// ArityLadder.swift): the room the values need is counted, a storage is taken (the thread's
// spare, or a new one), the parent's root is copied (its flat entries, or its index's root)
// and each value inserted (`ContextWriter`).

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
    ///
    /// The root stays flat while the parent's is and their types, counted as if all new, are
    /// at most `ContextIndex.flatLimit`; otherwise it is the index, built afresh over a flat
    /// parent (its entries copied in) or copied from an indexed one.
    @inlinable @inline(__always)
    static func make(
        owned: Int,
        bytes: Int,
        copies: Int,
        over parent: Unmanaged<ContextStorage>?,
        processWideToken: UInt64? = nil,
        place: (inout ContextWriter) -> Void
    ) -> ContextStorage {
        // The parent's root: its flat entries (0 with no parent), or `ContextIndex.indexed`.
        let parentFlat =
            parent?._withUnsafeGuaranteedRef { $0.withUnsafeMutablePointerToHeader { $0.pointee.flatCount } } ?? 0
        let flat = parentFlat >= 0 && parentFlat &+ owned <= ContextIndex.flatLimit
        // A flat parent's entries, copied into an index built afresh.
        let inherited = !flat && parentFlat > 0 ? parentFlat : 0
        let (structure, capacity) = room(
            owned: owned, bytes: bytes, copies: copies &+ inherited, leaves: flat ? 0 : owned &+ inherited)

        let token = processWideToken ?? parent?._withUnsafeGuaranteedRef { $0.processWideToken } ?? 0
        let storage: ContextStorage
        if let recycled = StorageCache.take(capacity: capacity) {
            // A storage of this thread's last scope, emptied when that scope ended.
            recycled.withUnsafeMutablePointerToHeader { header in
                header.pointee.parent = parent?.retain()  // an emptied storage has none to release
                header.pointee.processWideToken = token
            }
            storage = recycled
        } else {
            storage = allocate(capacity: capacity, over: parent, processWideToken: token)
        }

        // The pointers outlive the closure that gives them: `storage` is held to the end.
        let (header, tail) = storage.withUnsafeMutablePointers { ($0, $1) }
        let root = UnsafeMutableRawPointer(tail)
        var count = 0
        if flat {
            // The parent's flat entries (a flat root holds one per type: `count` of them).
            if let parent, parentFlat > 0 {
                parent._withUnsafeGuaranteedRef {
                    $0.withUnsafeMutablePointerToElements { parentTail in
                        root.copyMemory(from: parentTail, byteCount: parentFlat &* MemoryLayout<FlatEntry>.stride)
                    }
                }
                count = parentFlat
            }
        } else if let parent, parentFlat < 0 {
            // The parent's index: its root, shared leaves and all.
            parent._withUnsafeGuaranteedRef {
                $0.withUnsafeMutablePointers { parentHeader, parentTail in
                    root.copyMemory(from: parentTail, byteCount: ContextIndex.bytes)
                    count = parentHeader.pointee.count
                }
            }
        } else {
            // An index built afresh: empty, then the flat parent's entries (below).
            root.initializeMemory(
                as: UnsafeRawPointer.self, repeating: _ambient_empty_leaf_address(), count: ContextIndex.width)
        }
        var writer = ContextWriter(
            root: root,
            owned: UnsafeMutableRawPointer(tail + ContextIndex.width),
            structure: UnsafeMutableRawPointer(tail + (ContextIndex.width &+ owned &* ContextIndex.slotWords)),
            values: UnsafeMutableRawPointer(tail + structure),
            end: UnsafeMutableRawPointer(tail + capacity),
            count: count,
            flatCount: flat ? count : ContextIndex.indexed)
        if inherited > 0, let parent {
            parent._withUnsafeGuaranteedRef { $0.withFlatEntries { writer.index($0) } }
        }
        place(&writer)
        header.pointee.count = writer.count
        header.pointee.flatCount = writer.flatCount
        header.pointee.ownedCount = writer.stored
        return storage
    }

    /// A new empty storage with room for `capacity` words over `parent` (retained here). Out
    /// of line: a scope takes the thread's spare instead, nearly always.
    @usableFromInline @inline(never)
    static func allocate(
        capacity: Int, over parent: Unmanaged<ContextStorage>?, processWideToken token: UInt64
    )
        -> ContextStorage
    {
        let buffer = ContextStorage.create(minimumCapacity: capacity) { _ in
            ContextHeader(
                count: 0, flatCount: 0, ownedCount: 0, parent: parent?.retain(), processWideToken: token,
                capacity: capacity)
        }
        let storage = unsafeDowncast(buffer, to: ContextStorage.self)
        precondition(
            ContextLayout.holds(for: storage),
            "ContextStorage: this platform lays out a ManagedBuffer other than ContextLayout computes; reads would go astray"
        )
        assert(ContextLayout.flatCountIsFirst, "ContextStorage: the read loads flatCount as the header's first field")
        return storage
    }

    /// The words a storage's tail needs for `owned` values taking at most `bytes` bytes,
    /// `copies` copied entries and `leaves` new leaves (at most 16 of them count): the root,
    /// the entries, the leaves and the copies (the `structure`), then the values.
    @inlinable
    static func room(owned: Int, bytes: Int, copies: Int, leaves: Int) -> (structure: Int, total: Int) {
        let word = MemoryLayout<UInt>.stride
        let structure =
            ContextIndex.width &+ (owned &+ copies) &* ContextIndex.slotWords
            &+ Swift.min(leaves, ContextIndex.width) &* ContextIndex.width
        return (structure, structure &+ (bytes &+ word &- 1) / word)
    }

    /// The bytes a storage takes with room for `words` words: the object's header (two
    /// words), the context's header and the tail. (The allocator may round it up.)
    static func footprint(words: Int) -> Int {
        let word = MemoryLayout<UInt>.stride
        return 2 &* word &+ MemoryLayout<ContextHeader>.stride &+ words &* word
    }

    /// The bytes a storage made for `values` values of `valueBytes` bytes in all (each
    /// aligned to a word at most) takes in an index, with `copies` copied entries (0: no path
    /// copies; a flat parent's entries when the index is built afresh): what a scope of them
    /// keeps however many types its parent holds.
    static func footprint(values: Int, valueBytes: Int, copies: Int = 0) -> Int {
        let bytes = valueBytes &+ values &* (MemoryLayout<UInt>.alignment &- 1)
        return footprint(words: room(owned: values, bytes: bytes, copies: copies, leaves: values &+ copies).total)
    }

    /// The bytes this storage takes (see ``footprint(words:)``).
    var footprint: Int { Self.footprint(words: roomInTail) }

    /// The bytes this storage and every ancestor it keeps alive take: what a context holds.
    var chainFootprint: Int {
        var total = 0
        var storage: ContextStorage? = self
        while let current = storage {
            total &+= current.footprint
            storage = current.withUnsafeMutablePointerToHeader { $0.pointee.parent?.takeUnretainedValue() }
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

    /// How many entries precede `V`'s in its bucket; 0 when `V` has none, and in a flat root
    /// (whose entry of `V` is overwritten in place).
    @inlinable
    func entries<V: Injectable>(before _: V.Type) -> Int {
        guard isIndexed else { return 0 }
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
