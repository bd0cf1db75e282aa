// SPDX-License-Identifier: Apache-2.0

// Why: a receiver decoding propagated fields makes values one at a time, some failing: one
// storage for all of them, where injecting them one by one would make a storage per value.

/// Stores values, each of a different type, into one new storage: at most `capacity` of
/// them, of the types whose room ``InjectionContext/building(room:_:)`` reserved.
@usableFromInline
package struct ContextBuilder: ~Copyable {
    @usableFromInline let writer: UnsafeMutablePointer<ContextWriter>
    @usableFromInline let capacity: Int

    @usableFromInline
    init(writer: UnsafeMutablePointer<ContextWriter>, capacity: Int) {
        self.writer = writer
        self.capacity = capacity
    }

    /// How many values were stored.
    @inlinable
    package var stored: Int { writer.pointee.stored }

    /// Stores `value` (moved in); a later value of the same type would be found first.
    @inlinable
    package mutating func store<V: Injectable>(_ value: consuming V) {
        precondition(
            writer.pointee.stored < capacity
                && writer.pointee.values.alignedUp(for: V.self) + MemoryLayout<V>.size <= writer.pointee.end,
            "ContextBuilder: no room reserved for a \(V.self)")
        writer.pointee.insert(consume value)
    }
}

extension InjectionContext {
    /// The room ``building(room:_:)`` needs for one value of each of `types`.
    @inlinable
    package static func room(for types: some Sequence<any Injectable.Type>) -> (values: Int, bytes: Int) {
        func bytes<V: Injectable>(_: V.Type) -> Int { ContextStorage.reservation(for: V.self) }
        return types.reduce((0, 0)) { ($0.values + 1, $0.bytes + bytes($1)) }
    }

    /// A context holding what `build` stores, within `room` (from ``room(for:)``): one
    /// allocation, none when it stores nothing.
    @inlinable
    package static func building(
        _: Void = (), room: (values: Int, bytes: Int), _ build: (inout ContextBuilder) -> Void
    )
        -> InjectionContext
    {
        guard room.values > 0 else { return InjectionContext() }
        var stored = 0
        let storage = ContextStorage.make(owned: room.values, bytes: room.bytes, copies: 0, over: nil) { writer in
            withUnsafeMutablePointer(to: &writer) { pointer in
                var builder = ContextBuilder(writer: pointer, capacity: room.values)
                build(&builder)
                stored = builder.stored
            }
        }
        return stored == 0 ? InjectionContext() : InjectionContext(storage: storage)
    }
}
