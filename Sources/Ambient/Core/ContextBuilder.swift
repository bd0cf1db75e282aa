// SPDX-License-Identifier: Apache-2.0

// Building a context from values made one at a time, some of which may fail to be made (a
// receiver decoding carried fields): one storage for all of them, where injecting them one by
// one would make a storage per value.

/// Stores values, each of a different type, into one new storage: at most `capacity` of
/// them, of the types whose room ``InjectionContext/building(room:_:)`` reserved.
struct ContextBuilder: ~Copyable {
    private let slots: UnsafeMutablePointer<ContextSlot>
    private let capacity: Int
    private var cursor: UnsafeMutableRawPointer
    private let end: UnsafeMutableRawPointer
    /// How many values were stored: in slots `capacity - stored ..< capacity`.
    private(set) var stored = 0

    fileprivate init(
        slots: UnsafeMutablePointer<ContextSlot>, capacity: Int, cursor: UnsafeMutableRawPointer, bytes: Int
    ) {
        self.slots = slots
        self.capacity = capacity
        self.cursor = cursor
        self.end = cursor + bytes
    }

    /// Stores `value`; a later value of the same type would be found first.
    mutating func store<V: Injectable>(_ value: V) {
        precondition(
            stored < capacity && cursor.alignedUp(for: V.self) + MemoryLayout<V>.size <= end,
            "ContextBuilder: no room reserved for a \(V.self)")
        var index = capacity - stored
        ContextStorage.storeValue(value, in: slots, at: &index, bytes: &cursor)
        stored += 1
    }
}

extension InjectionContext {
    /// The room ``building(room:_:)`` needs for one value of each of `types`.
    static func room(for types: some Sequence<any Injectable.Type>) -> (values: Int, bytes: Int) {
        func bytes<V: Injectable>(_: V.Type) -> Int { ContextStorage.reservation(for: V.self) }
        return types.reduce((0, 0)) { ($0.values + 1, $0.bytes + bytes($1)) }
    }

    /// A context holding what `build` stores, within `room` (from ``room(for:)``): one
    /// allocation, none when it stores nothing.
    static func building(
        _: Void = (), room: (values: Int, bytes: Int), _ build: (inout ContextBuilder) -> Void
    )
        -> InjectionContext
    {
        guard room.values > 0 else { return InjectionContext() }
        var stored = 0
        let storage = ContextStorage.make(
            owned: room.values, bytes: room.bytes, over: nil, reinjects: { _ in false },
            place: { slots, cursor in
                var builder = ContextBuilder(slots: slots, capacity: room.values, cursor: cursor, bytes: room.bytes)
                build(&builder)
                stored = builder.stored
                // What was stored sits at the top of the slots: move it to the bottom, where
                // lookups start (slots are a type and an address: trivial to move).
                if stored < room.values {
                    UnsafeMutableRawPointer(slots).copyMemory(
                        from: slots + (room.values - stored), byteCount: stored * MemoryLayout<ContextSlot>.stride)
                }
            })
        storage.withUnsafeMutablePointerToHeader { header in
            header.pointee.count = stored
            header.pointee.ownedCount = stored
        }
        return stored == 0 ? InjectionContext() : InjectionContext(storage: storage)
    }
}
