// SPDX-License-Identifier: Apache-2.0

// Why: the costs a different design would have, measured beside today's rows, so the
// Performance article can say which design reaches the goals this one does not.
import Ambient
import Foundation
import _AmbientShims

// Two prototypes, not shipped, each the smallest code that shows one design's cost:
//
// 1. A flat context, for a scope whose context holds few types: up to four (type, value
//    address) pairs, the parent's copied in, and the values' bytes; no two-level index. It
//    binds one task-local and keeps a spare storage per thread, as Ambient's scope does
//    (the same C thread-local), and reads by comparing up to four metadata pointers. What it
//    leaves out: more than four types (Ambient's index would take over), process-wide
//    scopes, strict mode, followers: each a branch on the flag word Ambient already loads.
// 2. A clock whose representation is trivially destroyed (a fixed time inline, a test
//    clock by an index into a table that never frees): a never-injected read then hands
//    the caller a value it need not destroy, as a global `let` does.
// 3. A process-wide read inlined at the read site: the reader finds nothing bound here (the
//    runtime's lookup a bound read makes), then reads the published snapshot under Ambient's
//    hazard pointer (the same C functions) and compares its flat entries. What it leaves
//    out: the test of whether the reader's own binding was made inside the scope, and
//    strict mode; Ambient's read keeps this half out of line, so every `current` stays small.

/// The running task's or thread's flat context, borrowed: the runtime's task-local lookup.
@_silgen_name("swift_task_localValueGet")
private func flatTaskLocalValueGet(key: UnsafeRawPointer) -> UnsafeMutableRawPointer?

/// A flat context's storage: four pairs and four 32-byte value slots. Unchecked `Sendable`:
/// once bound it is not written again (as Ambient's storage).
final class FlatContext: @unchecked Sendable {
    var count = 0
    var parent: FlatContext?
    let types = UnsafeMutablePointer<UnsafeRawPointer?>.allocate(capacity: 4)
    let addresses = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: 4)
    let values = UnsafeMutableRawPointer.allocate(byteCount: 128, alignment: 16)

    deinit {
        types.deallocate()
        addresses.deallocate()
        values.deallocate()
    }

    /// The thread's spare storage, or a new one (stage 1's storage, as Ambient takes it).
    @inline(__always)
    static func take() -> FlatContext {
        guard let raw = _ambient_spare_take() else { return FlatContext() }
        return Unmanaged<FlatContext>.fromOpaque(raw).takeRetainedValue()
    }

    /// Copies `parent`'s pairs but those of `replaced` types; returns the next free pair.
    @inline(__always)
    func copyPairs(of parent: Unmanaged<FlatContext>?, but replaced: (UnsafeRawPointer?) -> Bool) -> Int {
        var count = 0
        parent?._withUnsafeGuaranteedRef { parent in
            for index in 0..<parent.count where !replaced(parent.types[index]) {
                types[count] = parent.types[index]
                addresses[count] = parent.addresses[index]
                count &+= 1
            }
        }
        return count
    }

    /// Writes `value` into slot `slot` and its pair at `pair`.
    @inline(__always)
    func insert<V>(_ value: V, slot: Int, pair: Int) {
        precondition(MemoryLayout<V>.size <= 32, "a flat context's slots are 32 bytes")
        let address = values + 32 &* slot
        address.initializeMemory(as: V.self, to: value)
        types[pair] = unsafeBitCast(V.self as Any.Type, to: UnsafeRawPointer.self)
        addresses[pair] = address
    }

    /// Stage 3: a storage nothing else holds is emptied by `empty` and kept as the thread's
    /// spare.
    @inline(__always)
    static func recycle(_ storage: consuming FlatContext, empty: (FlatContext) -> Void) {
        var held: FlatContext? = consume storage
        guard isKnownUniquelyReferenced(&held), let unique = held.take() else { return }
        empty(unique)
        unique.count = 0
        unique.parent = nil
        // Written out rather than shared with `unretainedFlatScope`'s: a helper called here
        // counts more (`Benchmarks/instructions 'prototype: '`), and this row measures a design.
        if _ambient_spare_peek() == nil {
            _ambient_spare_put(Unmanaged.passRetained(unique).toOpaque()) { spare in
                Unmanaged<FlatContext>.fromOpaque(spare).release()
            }
        }
    }
}

/// The context bound to `key`'s task-local, borrowed (no retain): what Ambient's read does.
@inline(__always)
func flatBound(key: UnsafeRawPointer) -> Unmanaged<FlatContext>? {
    guard let item = flatTaskLocalValueGet(key: key), let raw = item.load(as: UnsafeRawPointer?.self) else {
        return nil
    }
    return Unmanaged.fromOpaque(raw)
}

enum FlatBinding {
    @TaskLocal static var context: FlatContext?

    static var key: UnsafeRawPointer { UnsafeRawPointer(Unmanaged.passUnretained($context).toOpaque()) }
}

/// The flat context bound unretained: a trivial value, as the raw floor binds. Unsafe as a
/// design (a `Task { }` started in the scope inherits the binding and may outlive the
/// storage); measured only to say what the binding's reference counting costs.
struct UnretainedFlatContext: @unchecked Sendable {
    let storage: Unmanaged<FlatContext>?
}

enum UnretainedFlatBinding {
    @TaskLocal static var context = UnretainedFlatContext(storage: nil)

    static var key: UnsafeRawPointer { UnsafeRawPointer(Unmanaged.passUnretained($context).toOpaque()) }
}

/// `flatScope` with the storage bound unretained (see `UnretainedFlatContext`).
@inline(__always)
func unretainedFlatScope<V, R>(_ value: V, _ body: () -> R) -> R {
    let type = unsafeBitCast(V.self as Any.Type, to: UnsafeRawPointer.self)
    let storage = FlatContext.take()
    let count = storage.copyPairs(of: flatBound(key: UnretainedFlatBinding.key)) { $0 == type }
    storage.insert(value, slot: 0, pair: count)
    storage.count = count &+ 1
    let bound = UnretainedFlatContext(storage: Unmanaged.passUnretained(storage))
    let result = UnretainedFlatBinding.$context.withValue(bound) { body() }
    storage.values.assumingMemoryBound(to: V.self).deinitialize(count: 1)
    storage.count = 0
    _ambient_spare_put(Unmanaged.passRetained(storage).toOpaque()) { spare in
        Unmanaged<FlatContext>.fromOpaque(spare).release()
    }
    return result
}

/// A one-value scope on a flat context: enter (a spare storage, the parent's pairs copied
/// but `V`'s, the value written), bind and run, end (recycled as the thread's spare when
/// nothing else holds it).
@inline(__always)
func flatScope<V, R>(_ value: V, _ body: () -> R) -> R {
    let type = unsafeBitCast(V.self as Any.Type, to: UnsafeRawPointer.self)
    let storage = FlatContext.take()
    let parent = flatBound(key: FlatBinding.key)
    let count = storage.copyPairs(of: parent) { $0 == type }
    if let parent { storage.parent = parent.takeUnretainedValue() }
    storage.insert(value, slot: 0, pair: count)
    storage.count = count &+ 1
    let result = FlatBinding.$context.withValue(storage) { body() }
    FlatContext.recycle(storage) { $0.values.assumingMemoryBound(to: V.self).deinitialize(count: 1) }
    return result
}

/// `flatScope` for three values (each in a slot of its own; a later one wins a shared type).
@inline(__always)
func flatScope<A, B, C, R>(_ a: A, _ b: B, _ c: C, _ body: () -> R) -> R {
    let types = (
        unsafeBitCast(A.self as Any.Type, to: UnsafeRawPointer.self),
        unsafeBitCast(B.self as Any.Type, to: UnsafeRawPointer.self),
        unsafeBitCast(C.self as Any.Type, to: UnsafeRawPointer.self)
    )
    let storage = FlatContext.take()
    let parent = flatBound(key: FlatBinding.key)
    let count = storage.copyPairs(of: parent) { $0 == types.0 || $0 == types.1 || $0 == types.2 }
    if let parent { storage.parent = parent.takeUnretainedValue() }
    storage.insert(a, slot: 0, pair: count)
    storage.insert(b, slot: 1, pair: count &+ 1)
    storage.insert(c, slot: 2, pair: count &+ 2)
    storage.count = count &+ 3
    let result = FlatBinding.$context.withValue(storage) { body() }
    FlatContext.recycle(storage) { unique in
        unique.values.assumingMemoryBound(to: A.self).deinitialize(count: 1)
        (unique.values + 32).assumingMemoryBound(to: B.self).deinitialize(count: 1)
        (unique.values + 64).assumingMemoryBound(to: C.self).deinitialize(count: 1)
    }
    return result
}

/// A read on a flat context: up to four compares, then the value copied out.
@inline(__always)
func flatRead<V>(_: V.Type, default value: @autoclosure () -> V) -> V {
    let type = unsafeBitCast(V.self as Any.Type, to: UnsafeRawPointer.self)
    guard let bound = flatBound(key: FlatBinding.key) else { return value() }
    return bound._withUnsafeGuaranteedRef { context in
        for index in 0..<context.count where context.types[index] == type {
            return context.addresses[index]!.load(as: V.self)
        }
        return value()
    }
}

/// The process-wide read of prototype 3: nothing bound here, then the published snapshot.
@inline(__always)
func processWideFlatRead<V>(_: V.Type, default value: @autoclosure () -> V) -> V {
    let type = unsafeBitCast(V.self as Any.Type, to: UnsafeRawPointer.self)
    if let bound = flatBound(key: FlatBinding.key) {
        let found: V? = bound._withUnsafeGuaranteedRef { context in
            for index in 0..<context.count where context.types[index] == type {
                return context.addresses[index]!.load(as: V.self)
            }
            return nil
        }
        if let found { return found }
    }
    guard let raw = _ambient_pw_protect() else { return value() }
    defer { _ambient_pw_unprotect() }
    return Unmanaged<FlatContext>.fromOpaque(raw)._withUnsafeGuaranteedRef { context in
        for index in 0..<context.count where context.types[index] == type {
            return context.addresses[index]!.load(as: V.self)
        }
        return value()
    }
}

/// Runs `body` with a flat context holding `value` published as the process-wide snapshot
/// (in a case's own process, where nothing of Ambient's is process-wide).
func withPublishedSnapshot<V>(_ value: V, _ body: () -> Void) {
    let snapshot = FlatContext()
    snapshot.insert(value, slot: 0, pair: 0)
    snapshot.count = 1
    _ = _ambient_pw_exchange(UnsafeRawPointer(Unmanaged.passRetained(snapshot).toOpaque()))
    body()
    if let replaced = _ambient_pw_exchange(nil) {
        _ambient_pw_wait_unprotected(replaced)
        Unmanaged<FlatContext>.fromOpaque(replaced).release()
    }
}

/// A clock whose representation needs no destroying: what a never-injected read of it costs.
struct TrivialClock: AmbientValue {
    enum Storage {
        case live
        case fixed(Double)
        case test(UInt32)
    }
    let storage: Storage
    static var defaultValue: TrivialClock { TrivialClock(storage: .live) }
}

/// A global `let` of the trivially destroyed clock: its floor.
let liveTrivialClock = TrivialClock(storage: .live)

@inline(never)
func sink(_ clock: TrivialClock, _ index: Int) { withExtendedLifetime(clock) { sunk = index } }

let prototypeCases: [String: @Sendable (Int) -> Void] = [
    "prototype: flat scope, 1 value (empty body)": { count in
        for index in 0..<count { flatScope(Stamp(id: index)) { consume(index) } }
    },
    "prototype: flat scope bound unretained (unsafe), 1 value (empty body)": { count in
        for index in 0..<count { unretainedFlatScope(Stamp(id: index)) { consume(index) } }
    },
    "prototype: flat scope, 3 values (empty body)": { count in
        let noon = Clock.fixed(Date(timeIntervalSince1970: 43_200))
        for index in 0..<count { flatScope(Stamp(id: index), Other(id: index), noon) { consume(index) } }
    },
    "prototype: flat scope, read in a scope of 1": { count in
        flatScope(Stamp(id: 1)) { for _ in 0..<count { consume(flatRead(Stamp.self, default: Stamp(id: 0))) } }
    },
    "prototype: trivially destroyed clock, never injected, into the same sink": { count in
        for index in 0..<count { sink(TrivialClock.current, index) }
    },
    "prototype: process-wide read, inlined at the read site": { count in
        withPublishedSnapshot(Stamp(id: 1)) {
            for _ in 0..<count { consume(processWideFlatRead(Stamp.self, default: Stamp(id: 0))) }
        }
    },
    "prototype: trivially destroyed clock, global let read": { count in
        for index in 0..<count { sink(liveTrivialClock, index) }
    },
]
