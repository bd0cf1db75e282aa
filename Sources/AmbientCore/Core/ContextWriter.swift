// SPDX-License-Identifier: Apache-2.0

// Why: inserting a value into a storage being made is the one place the root is written.

/// Inserts values into a ``ContextStorage`` while `make` builds it (ContextStorage+Making.swift):
/// stores each value's bytes and its owned entry, then, in a flat root, overwrites the entry
/// of the same type or appends one; in an index, copies the leaf of its bucket the first time
/// this storage touches it, unlinks an entry of the same type, and puts the new entry first.
///
/// The room was counted by `make`: `owned` entries, the leaves, the path copies
/// `ContextStorage.entries(before:)` counted and a flat parent's entries, and the values'
/// reservations.
@usableFromInline
struct ContextWriter: ~Copyable {
    /// The storage's root (its parent's, copied).
    @usableFromInline let root: UnsafeMutableRawPointer
    /// Where the owned entries go, in argument order.
    @usableFromInline let owned: UnsafeMutableRawPointer
    /// Where the next leaf or path copy goes: everything from `owned` up to here is this
    /// storage's, and may still be written.
    @usableFromInline var structure: UnsafeMutableRawPointer
    /// The end of the structure region.
    @usableFromInline let structureEnd: UnsafeMutableRawPointer
    /// Where the next value's bytes go.
    @usableFromInline var values: UnsafeMutableRawPointer
    /// The end of the tail.
    @usableFromInline let end: UnsafeMutableRawPointer
    /// How many distinct types the storage holds so far.
    @usableFromInline var count: Int
    /// How many entries a flat root holds, or `ContextIndex.indexed`.
    @usableFromInline var flatCount: Int
    /// How many entries were stored.
    @usableFromInline var stored = 0
    /// Which leaves (bit per root word) are this storage's own copies.
    @usableFromInline var ownLeaves: UInt32 = 0

    @inlinable
    init(
        root: UnsafeMutableRawPointer,
        owned: UnsafeMutableRawPointer,
        structure: UnsafeMutableRawPointer,
        values: UnsafeMutableRawPointer,
        end: UnsafeMutableRawPointer,
        count: Int,
        flatCount: Int
    ) {
        self.root = root
        self.owned = owned
        self.structure = structure
        self.structureEnd = values
        self.values = values
        self.end = end
        self.count = count
        self.flatCount = flatCount
    }

    /// Inserts `value`: from here on a lookup of `V` finds it. A second `V` in the same
    /// storage hides the first (both live until the storage is emptied).
    @inlinable @inline(__always)
    mutating func insert<V: Injectable>(_ value: consuming V) {
        let address = values.alignedUp(for: V.self)
        assert(address + MemoryLayout<V>.size <= end, "ContextStorage: no room reserved for a \(V.self)")
        address.initializeMemory(as: V.self, to: consume value)  // moved in: a value made for it is not copied
        values = address + MemoryLayout<V>.size

        let key = ObjectIdentifier(V.self)
        // Raw initialisation binds the entry's memory to `ContextSlot` (a recycled storage
        // may have held a value's bytes there).
        let entry = owned + stored &* MemoryLayout<ContextSlot>.stride
        stored &+= 1
        if flatCount >= 0 {
            entry.initializeMemory(
                as: ContextSlot.self, to: ContextSlot(type: V.self, value: UnsafeRawPointer(address), next: nil))
            let flat = FlatEntry(type: V.self, value: UnsafeRawPointer(address))
            var index = 0
            while index < flatCount {
                let existing = root + index &* MemoryLayout<FlatEntry>.stride
                if ObjectIdentifier(existing.load(as: FlatEntry.self).type) == key {
                    existing.initializeMemory(as: FlatEntry.self, to: flat)
                    return
                }
                index &+= 1
            }
            assert(
                flatCount < ContextIndex.flatLimit,
                "ContextStorage: a flat root holds at most \(ContextIndex.flatLimit) types")
            (root + flatCount &* MemoryLayout<FlatEntry>.stride).initializeMemory(as: FlatEntry.self, to: flat)
            flatCount &+= 1
            count &+= 1
            return
        }
        let bucket = ContextIndex.bucket(of: key)
        let head = leaf(at: bucket.root) + bucket.leaf
        var next = head.load(as: UnsafePointer<ContextSlot>?.self)
        if let shadowed = ContextSlot.find(key, from: next) {
            unlink(shadowed, from: head)
            next = head.load(as: UnsafePointer<ContextSlot>?.self)
        } else {
            count &+= 1
        }
        let indexed = entry.initializeMemory(
            as: ContextSlot.self, to: ContextSlot(type: V.self, value: UnsafeRawPointer(address), next: next))
        head.storeBytes(of: UnsafePointer(indexed), as: UnsafePointer<ContextSlot>?.self)
    }

    /// Indexes a flat parent's entries (each of a different type) in the index this storage
    /// builds afresh: each copied into the structure region, first in its bucket.
    @inlinable
    mutating func index(_ inherited: UnsafeBufferPointer<FlatEntry>) {
        for entry in inherited {
            let bucket = ContextIndex.bucket(of: ObjectIdentifier(entry.type))
            let head = leaf(at: bucket.root) + bucket.leaf
            let next = head.load(as: UnsafePointer<ContextSlot>?.self)
            let copy = reserve(bytes: MemoryLayout<ContextSlot>.stride).initializeMemory(
                as: ContextSlot.self, to: ContextSlot(type: entry.type, value: entry.value, next: next))
            head.storeBytes(of: UnsafePointer(copy), as: UnsafePointer<ContextSlot>?.self)
            count &+= 1
        }
    }

    /// The leaf at `offset` in the root, this storage's own: copied from the parent's (or
    /// the empty leaf) the first time.
    @inlinable @inline(__always)
    mutating func leaf(at offset: Int) -> UnsafeMutableRawPointer {
        let bit = UInt32(1) &<< UInt32(truncatingIfNeeded: offset / MemoryLayout<UInt>.stride)
        if ownLeaves & bit != 0 {
            return UnsafeMutableRawPointer(mutating: root.load(fromByteOffset: offset, as: UnsafeRawPointer.self))
        }
        let copy = reserve(bytes: ContextIndex.bytes)
        copy.copyMemory(
            from: root.load(fromByteOffset: offset, as: UnsafeRawPointer.self), byteCount: ContextIndex.bytes)
        root.storeBytes(of: UnsafeRawPointer(copy), toByteOffset: offset, as: UnsafeRawPointer.self)
        ownLeaves |= bit
        return copy
    }

    /// Removes `shadowed` from the chain whose first entry is stored at `head`: the entries
    /// before it that are this storage's are relinked in place, those inherited are copied
    /// (an ancestor's entries never change). Only types whose buckets collide come here.
    @inlinable
    mutating func unlink(_ shadowed: UnsafePointer<ContextSlot>, from head: UnsafeMutableRawPointer) {
        var previous: UnsafeMutablePointer<ContextSlot>? = nil  // nil: the link is `head`
        var entry = head.load(as: UnsafePointer<ContextSlot>.self)
        while entry != shadowed {
            var mine = UnsafeMutablePointer(mutating: entry)
            if !isOwn(entry) {
                mine = reserve(bytes: MemoryLayout<ContextSlot>.stride).initializeMemory(
                    as: ContextSlot.self, to: entry.pointee)
                link(previous, head, to: UnsafePointer(mine))
            }
            previous = mine
            entry = mine.pointee.next!
        }
        link(previous, head, to: shadowed.pointee.next)
    }

    /// Points `previous`'s `next` (or, with no `previous`, the bucket at `head`) to `entry`.
    @inlinable
    func link(
        _ previous: UnsafeMutablePointer<ContextSlot>?, _ head: UnsafeMutableRawPointer,
        to entry: UnsafePointer<ContextSlot>?
    ) {
        if let previous {
            previous.pointee.next = entry
        } else {
            head.storeBytes(of: entry, as: UnsafePointer<ContextSlot>?.self)
        }
    }

    /// Whether `entry` is in this storage's own structure (and may be written).
    @inlinable
    func isOwn(_ entry: UnsafePointer<ContextSlot>) -> Bool {
        let address = UnsafeRawPointer(entry)
        return address >= UnsafeRawPointer(owned) && address < UnsafeRawPointer(structure)
    }

    /// `bytes` bytes of the structure region (word multiples, so always word-aligned).
    @inlinable
    mutating func reserve(bytes: Int) -> UnsafeMutableRawPointer {
        let start = structure
        assert(start + bytes <= structureEnd, "ContextStorage: no room reserved for the index")
        structure = start + bytes
        return start
    }
}
