// SPDX-License-Identifier: Apache-2.0

import _AmbientShims

// Why: one object per scope holds every value it can see, so a read costs the same however
// many types are injected: a few types as a flat list of entries (a scope copies its parent's
// handful), more through a hashed index it shares with its parent instead of copying it.

// The layout
// ==========
// A `ContextStorage` is one `ManagedBuffer` of words: a header, then its tail.
//
//     tail: | root: 16 words | owned entries | leaves and path copies | values' bytes |
//
// - An entry (`ContextSlot`) is one injected value: its type, where its bytes are, and the
//   next entry of the same bucket. A storage's owned entries are the values its scope
//   injected, in argument order.
// - The root is one of two things, which the header's `flatCount` says:
//   - **Flat** (a context of at most `ContextIndex.flatLimit` types, 5): the root holds one
//     `FlatEntry` (a type and its value's address) per type the context sees, its own and
//     its parent's, copied (each 3 words, so 5 fit in the root's 16). A read compares at
//     most 5 metadata pointers; a scope copies at most 5 entries. Most contexts are these:
//     a test's or a request's handful of fakes.
//   - **Indexed** (more types): a two-level table of 256 buckets keyed by the type's metadata
//     pointer, hashed (Fibonacci multiplication): the root's 16 words point to leaves, a
//     leaf's 16 words to the first entry of a bucket, and entries chain within a bucket
//     (types whose hashes collide; rare: 64 types fill 256 buckets with about 7 collisions).
//     A root word that no injected type needed points to a shared empty leaf
//     (`_ambient_empty_leaf`), never null, so a lookup is the same loads whether the leaf
//     exists or not.
// - A scope over an indexed parent copies its parent's root (16 words), and for each value it
//   injects copies the one leaf its bucket is in (16 words) and prepends an entry to that
//   bucket. Everything else — the other 15 leaves, every other entry, every value — is the
//   parent's, shared, and kept alive by `parent`. So a scope costs the same whatever its
//   parent holds, a nested scope keeps what it injects plus at most 128 + 128 × values bytes,
//   and a read is two loads and a compare at any breadth.
// - The scope whose context outgrows the flat form (its flat parent's types and its own are
//   more than 5) builds the index afresh: its parent's entries, at most 5, are copied into it
//   as path copies are, once.
// - A type injected again is unlinked from its bucket: the entries before it in that chain
//   are copied (path copying, only when two types collide in one bucket), so a chain never
//   holds a shadowed entry and its length is bounded by the types that share the bucket,
//   however deep the nesting. In the flat form its entry is overwritten in place.
// Decided by measurement against a flat array and the other alternatives (ARCHITECTURE.md,
// "The context's representation"; the "breadth" rows of Benchmarks/instructions).

/// One injected value: its type, where it lives, and the next entry of its bucket.
@usableFromInline
struct ContextSlot {
    /// The injected value's type; its metadata pointer is the lookup key.
    @usableFromInline let type: any Injectable.Type
    /// The value: inside the storage that owns it (this one or an ancestor, which this one
    /// keeps alive through `parent`).
    @usableFromInline let value: UnsafeRawPointer
    /// The next entry of the same bucket, or `nil`. Written only while the storage that owns
    /// this entry is being made.
    @usableFromInline var next: UnsafePointer<ContextSlot>?

    @inlinable
    init(type: any Injectable.Type, value: UnsafeRawPointer, next: UnsafePointer<ContextSlot>?) {
        self.type = type
        self.value = value
        self.next = next
    }
}

/// One type a flat root holds: its type and where its value lives (an entry without a
/// chain, 3 words, so that 5 fit in the root's 16).
@usableFromInline
struct FlatEntry {
    /// The type; its metadata pointer is the lookup key.
    @usableFromInline let type: any Injectable.Type
    /// The value, in this storage or an ancestor.
    @usableFromInline let value: UnsafeRawPointer

    @inlinable
    init(type: any Injectable.Type, value: UnsafeRawPointer) {
        self.type = type
        self.value = value
    }
}

extension ContextSlot {
    /// The entry of `key`'s type in the chain starting at `first`, if any.
    @inlinable
    static func find(_ key: ObjectIdentifier, from first: UnsafePointer<ContextSlot>?) -> UnsafePointer<ContextSlot>? {
        var entry = first
        while let found = entry {
            if ObjectIdentifier(found.pointee.type) == key { return found }
            entry = found.pointee.next
        }
        return nil
    }
}

/// The header of a ``ContextStorage``.
@usableFromInline
struct ContextHeader {
    /// The root's form: how many entries it holds when it is flat (`count`, at most
    /// `ContextIndex.flatLimit`), or -1 when it is the index. A read's first load: the
    /// header's first field, so a read finds it at `ContextLayout.header`.
    @usableFromInline var flatCount: Int
    /// How many distinct types the context holds a value for, owned and inherited.
    @usableFromInline var count: Int
    /// How many entries this storage owns (they follow the root, in argument order).
    @usableFromInline var ownedCount: Int
    /// The context this one was made from; keeps the inherited entries and values alive.
    /// Held strongly, by hand (retained by `make`, released by `emptied()` and `deinit`), so
    /// that a scope with no parent, the common one, calls no `swift_release` on a nil.
    @usableFromInline var parent: Unmanaged<ContextStorage>?
    /// The process-wide scope this context was made inside (its level's token), or 0:
    /// such a context sees that scope's values while it is active (see `ProcessWide`).
    /// Inherited from `parent`.
    @usableFromInline var processWideToken: UInt64
    /// How many words the tail has room for: what a recycled storage can be reused for
    /// (see ContextStorage+Recycling.swift).
    @usableFromInline let capacity: Int

    @inlinable
    init(
        count: Int, flatCount: Int, ownedCount: Int, parent: Unmanaged<ContextStorage>?, processWideToken: UInt64,
        capacity: Int
    ) {
        self.flatCount = flatCount
        self.count = count
        self.ownedCount = ownedCount
        self.parent = parent
        self.processWideToken = processWideToken
        self.capacity = capacity
    }
}

extension Unmanaged where Instance == ContextStorage {
    /// Where the value injected for `V` lives in this storage, if any: the read's lookup on a
    /// borrowed storage (a binding's), valid while the caller keeps it bound.
    @inlinable @inline(__always)
    func address<V: Injectable>(of _: V.Type) -> UnsafeRawPointer? {
        ContextStorage.address(ofKey: ObjectIdentifier(V.self), in: UnsafeRawPointer(toOpaque()))
    }

    /// Where the value injected for the type `key` identifies lives in this storage, if any.
    @inlinable @inline(__always)
    func address(ofKey key: ObjectIdentifier) -> UnsafeRawPointer? {
        ContextStorage.address(ofKey: key, in: UnsafeRawPointer(toOpaque()))
    }
}

/// The shape of the index: sizes in words, and where a type's bucket is.
@usableFromInline
enum ContextIndex {
    /// Words in the root, and in a leaf.
    @inlinable static var width: Int { 16 }
    /// Bytes in the root, and in a leaf.
    @inlinable static var bytes: Int { width &* MemoryLayout<UInt>.stride }
    /// Words an entry takes.
    @inlinable static var slotWords: Int { MemoryLayout<ContextSlot>.stride / MemoryLayout<UInt>.stride }
    /// The most types a flat root holds: as many flat entries as fit in the root's words (5).
    @inlinable static var flatLimit: Int { bytes / MemoryLayout<FlatEntry>.stride }
    /// The `flatCount` of an indexed root.
    @inlinable static var indexed: Int { -1 }

    /// Where `key`'s bucket is: the byte offset of its leaf's pointer in the root, and of its
    /// chain's first entry in that leaf. The metadata pointer multiplied by 2^64/φ (its low
    /// bits are alignment, its high bits the same for every type of a binary), top 8 bits.
    @inlinable
    static func bucket(of key: ObjectIdentifier) -> (root: Int, leaf: Int) {
        let mixed = UInt(bitPattern: key) &* UInt(truncatingIfNeeded: 0x9E37_79B9_7F4A_7C15 as UInt64)
        let top = mixed &>> (UInt.bitWidth &- 8)
        let word = MemoryLayout<UInt>.stride
        return (Int(bitPattern: top &>> 4) &* word, Int(bitPattern: top & 15) &* word)
    }
}

/// Where a storage's parts are, in bytes from the object's address: what
/// `withUnsafeMutablePointers` computes (the object's two-word header, then `ContextHeader`,
/// then the tail), as constants, so that a read borrows the storage by its address and runs
/// plain loads, with no closure for the optimiser to outline. `ContextStorage.allocate` checks
/// them against the buffer's own pointers; a platform where they differ stops there, with a
/// message that says so.
@usableFromInline
enum ContextLayout {
    /// The header's offset.
    @inlinable static var header: Int {
        roundedUp(2 &* MemoryLayout<UInt>.stride, to: MemoryLayout<ContextHeader>.alignment)
    }
    /// The tail's offset.
    @inlinable static var tail: Int {
        roundedUp(header &+ MemoryLayout<ContextHeader>.size, to: MemoryLayout<UInt>.alignment)
    }

    @inlinable
    static func roundedUp(_ offset: Int, to alignment: Int) -> Int {
        (offset &+ alignment &- 1) & ~(alignment &- 1)
    }

    /// Whether `storage`'s header and tail are where the constants say. (The read also loads
    /// `flatCount` at `header`: Swift lays a struct's stored properties out in declaration
    /// order, and `flatCountIsFirst` says so, checked by a debug build's allocation and a test.)
    static func holds(for storage: ContextStorage) -> Bool {
        let object = UnsafeRawPointer(Unmanaged.passUnretained(storage).toOpaque())
        return storage.withUnsafeMutablePointers { header, tail in
            UnsafeRawPointer(header) == object + Self.header && UnsafeRawPointer(tail) == object + Self.tail
        }
    }

    /// Whether `flatCount` is the header's first field.
    static var flatCountIsFirst: Bool { MemoryLayout<ContextHeader>.offset(of: \.flatCount) == 0 }
}

/// The immutable map behind an ``InjectionContext``: ONE object per scope (reused from the
/// thread's spare when the previous scope's is free: ContextStorage+Recycling.swift), made
/// by ContextStorage+Making.swift. The layout is at the top of this file.
@usableFromInline
final class ContextStorage: ManagedBuffer<ContextHeader, UInt> {
    // Not `Sendable` to the compiler (`ManagedBuffer` opts out), but safe to share: it is
    // never mutated after `make` returns, and every value it holds is `Sendable` (an
    // `Injectable`). Holders mark their reference `nonisolated(unsafe)` citing this.

    /// The process-wide level this context was made inside, or 0.
    @usableFromInline
    var processWideToken: UInt64 {
        withUnsafeMutablePointerToHeader { $0.pointee.processWideToken }
    }

    /// How many distinct types this context injects a value for.
    var slotCount: Int {
        withUnsafeMutablePointerToHeader { $0.pointee.count }
    }

    /// The value injected for `V`, if any.
    @inlinable
    func value<V: Injectable>(of _: V.Type) -> V? {
        address(of: V.self)?.assumingMemoryBound(to: V.self).pointee
    }

    /// Where the value injected for `V` lives, if any: valid as long as this storage is.
    /// The read's lookup: at most 5 compares in a flat root; in an indexed one, the root's
    /// word for `V`'s bucket (a leaf, or the empty leaf), the leaf's, then the chain (one
    /// entry, nearly always).
    @inlinable @inline(__always)
    func address<V: Injectable>(of _: V.Type) -> UnsafeRawPointer? {
        address(ofKey: ObjectIdentifier(V.self))
    }

    /// Where the value injected for the type `key` identifies lives, if any: the flat root's
    /// entries compared in turn, or the index's bucket and its chain.
    @inlinable @inline(__always)
    func address(ofKey key: ObjectIdentifier) -> UnsafeRawPointer? {
        Self.address(ofKey: key, in: UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()))
    }

    /// Where the value injected for the type `key` identifies lives, if any, in the storage
    /// at `object` (borrowed: the caller keeps it alive). The read's path: plain loads at the
    /// offsets `ContextLayout` gives, no closure for the optimiser to outline.
    @inlinable @inline(__always)
    static func address(ofKey key: ObjectIdentifier, in object: UnsafeRawPointer) -> UnsafeRawPointer? {
        let flat = object.load(fromByteOffset: ContextLayout.header, as: Int.self)  // `flatCount`
        let tail = object + ContextLayout.tail
        if flat >= 0 {
            let entries = tail.assumingMemoryBound(to: FlatEntry.self)
            var index = 0
            while index < flat {
                if ObjectIdentifier(entries[index].type) == key { return entries[index].value }
                index &+= 1
            }
            return nil
        }
        return ContextSlot.find(key, from: firstEntry(of: key, root: tail))?.pointee.value
    }

    /// Whether the root is the index (not flat).
    @inlinable
    var isIndexed: Bool {
        withUnsafeMutablePointerToHeader { $0.pointee.flatCount < 0 }
    }

    /// The first entry of `key`'s bucket in an indexed storage, if any: the root's word for
    /// the bucket, then the leaf's.
    @inlinable
    func firstEntry(of key: ObjectIdentifier) -> UnsafePointer<ContextSlot>? {
        assert(isIndexed, "ContextStorage: a flat root has no buckets")
        return withUnsafeMutablePointerToElements { Self.firstEntry(of: key, root: UnsafeRawPointer($0)) }
    }

    /// The first entry of `key`'s bucket in the index whose root is at `root`.
    @inlinable
    static func firstEntry(of key: ObjectIdentifier, root: UnsafeRawPointer) -> UnsafePointer<ContextSlot>? {
        let bucket = ContextIndex.bucket(of: key)
        let leaf = root.load(fromByteOffset: bucket.root, as: UnsafeRawPointer.self)
        return leaf.load(fromByteOffset: bucket.leaf, as: UnsafePointer<ContextSlot>?.self)
    }

    /// The flat root's entries (its `flatCount` of them): every type the context sees.
    @inlinable
    func withFlatEntries<R>(_ body: (UnsafeBufferPointer<FlatEntry>) -> R) -> R {
        withUnsafeMutablePointers { header, tail in
            assert(header.pointee.flatCount >= 0, "ContextStorage: an indexed root has no flat entries")
            let first = UnsafeRawPointer(tail).assumingMemoryBound(to: FlatEntry.self)
            return body(UnsafeBufferPointer(start: first, count: header.pointee.flatCount))
        }
    }

    /// The entries this storage owns, in argument order.
    @inlinable
    func withOwnedSlots<R>(_ body: (UnsafeBufferPointer<ContextSlot>) -> R) -> R {
        withUnsafeMutablePointers { header, tail in
            let first = UnsafeRawPointer(tail + ContextIndex.width).assumingMemoryBound(to: ContextSlot.self)
            return body(UnsafeBufferPointer(start: first, count: header.pointee.ownedCount))
        }
    }

    /// Calls `body` with each type's entry, innermost scope first (within a scope, the last
    /// argument first), each type once.
    @usableFromInline
    func forEachSlot(_ body: (ContextSlot) -> Void) {
        var seen: Set<ObjectIdentifier> = []
        var storage: ContextStorage? = self
        while let current = storage {
            current.withOwnedSlots { slots in
                for slot in slots.reversed() where seen.insert(ObjectIdentifier(slot.type)).inserted {
                    body(slot)
                }
            }
            storage = current.withUnsafeMutablePointerToHeader { $0.pointee.parent?.takeUnretainedValue() }
        }
    }

    deinit {
        destroyOwnedValues()
        withUnsafeMutablePointerToHeader { $0.pointee.parent?.release() }
    }

    /// Destroys the values this storage owns, each type opened from its entry (`deinit`, and
    /// `empty()` when the storage is kept for reuse). The entries themselves are trivial (a
    /// metatype and two pointers): nothing to destroy.
    @usableFromInline
    func destroyOwnedValues() {
        withOwnedSlots { slots in
            for slot in slots { Self.destroyValue(slot.type, at: slot.value) }
        }
    }

    /// Destroys the `V` at `address`: specialised where `V` is known (the spelled-out
    /// `empty` forms), opened from an entry otherwise. The memory was bound to `V` when the
    /// value was stored (`ContextWriter.insert`'s raw initialisation).
    @inlinable
    static func destroyValue<V: Injectable>(_: V.Type, at address: UnsafeRawPointer) {
        UnsafeMutableRawPointer(mutating: address).assumingMemoryBound(to: V.self).deinitialize(count: 1)
    }

    /// Destroys the value of `slot`, which the caller knows holds a `V` (the spelled-out
    /// `empty` forms); a debug build checks the entry says so.
    @inlinable
    static func destroyValue<V: Injectable>(_: V.Type, of slot: ContextSlot) {
        assert(
            ObjectIdentifier(slot.type) == ObjectIdentifier(V.self),
            "ContextStorage.empty: entry holds a \(slot.type), not the \(V.self) its make stored")
        destroyValue(V.self, at: slot.value)
    }
}
