// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

// @testable: the context's index and its storage are internal to AmbientCore; these tests
// check its shape and sharing, which no public API shows.
@testable import AmbientCore

/// An ambient type that reports which value it is, so a test can read any of many types.
protocol Numbered: AmbientValue {
    var number: Int { get }
    init(number: Int)
}

/// A type per nesting level of `Tag`: as many distinct ambient types as a test needs.
struct Probe<Tag>: Numbered {
    let number: Int
    static var defaultValue: Probe { Probe(number: -1) }
}

enum ProbeBase {}

/// `count` distinct `Probe` types.
func probeTypes(_ count: Int) -> [any Numbered.Type] {
    func grow<Tag>(_: Tag.Type, _ left: Int, _ into: inout [any Numbered.Type]) {
        guard left > 0 else { return }
        into.append(Probe<Tag>.self)
        grow(Probe<Tag>.self, left - 1, &into)
    }
    var types: [any Numbered.Type] = []
    grow(ProbeBase.self, count, &types)
    return types
}

private func bucket(_ type: any Numbered.Type) -> Int {
    let bucket = ContextIndex.bucket(of: ObjectIdentifier(type))
    return bucket.root * 64 + bucket.leaf
}

private func current(_ type: any Numbered.Type) -> Int {
    func read<V: Numbered>(_: V.Type) -> Int { V.current.number }
    return read(type)
}

private func inContext(_ context: InjectionContext, _ type: any Numbered.Type) -> Int? {
    func read<V: Numbered>(_: V.Type) -> Int? { context[V.self]?.number }
    return read(type)
}

private func make(_ type: any Numbered.Type, _ number: Int) -> any Numbered {
    func make<V: Numbered>(_: V.Type) -> any Numbered { V(number: number) }
    return make(type)
}

/// Runs `body` inside one `withInjected` of `values` (1 to 7 of them, opened: the spelled-out
/// forms up to 3, the variadic one beyond).
private func withInjectedAll(_ values: [any Numbered], _ body: () -> Void) {
    func one<A: Injectable>(_ a: A) { withInjected(a, operation: body) }
    func two<A: Injectable, B: Injectable>(_ a: A, _ b: B) { withInjected(a, b, operation: body) }
    func three<A: Injectable, B: Injectable, C: Injectable>(_ a: A, _ b: B, _ c: C) {
        withInjected(a, b, c, operation: body)
    }
    func four<A: Injectable, B: Injectable, C: Injectable, D: Injectable>(_ a: A, _ b: B, _ c: C, _ d: D) {
        withInjected(a, b, c, d, operation: body)
    }
    func five<A: Injectable, B: Injectable, C: Injectable, D: Injectable, E: Injectable>(
        _ a: A, _ b: B, _ c: C, _ d: D, _ e: E
    ) {
        withInjected(a, b, c, d, e, operation: body)
    }
    func six<A: Injectable, B: Injectable, C: Injectable, D: Injectable, E: Injectable, F: Injectable>(
        _ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F
    ) {
        withInjected(a, b, c, d, e, f, operation: body)
    }
    func seven<A: Injectable, B: Injectable, C: Injectable, D: Injectable, E: Injectable, F: Injectable, G: Injectable>(
        _ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G
    ) {
        withInjected(a, b, c, d, e, f, g, operation: body)
    }
    switch values.count {
    case 1: one(values[0])
    case 2: two(values[0], values[1])
    case 3: three(values[0], values[1], values[2])
    case 4: four(values[0], values[1], values[2], values[3])
    case 5: five(values[0], values[1], values[2], values[3], values[4])
    case 6: six(values[0], values[1], values[2], values[3], values[4], values[5])
    default: seven(values[0], values[1], values[2], values[3], values[4], values[5], values[6])
    }
}

/// The root behind every context (ContextStorage.swift): flat up to five types, the hashed
/// index beyond; lookups, shadowing, path copying where types share a bucket, the index built
/// when a context outgrows the flat form, and what a nested scope keeps.
@Suite("Context index")
struct ContextIndexTests {
    /// A pool where most types share a bucket with another: 3 buckets of 4 types, and 4 types
    /// alone in their buckets (in the pool).
    static let pool: [any Numbered.Type] = {
        let many = probeTypes(3_000)
        let groups = Dictionary(grouping: many, by: bucket).values.filter { $0.count >= 4 }
            .sorted { bucket($0[0]) < bucket($1[0]) }
        let colliding = groups.prefix(3).flatMap { $0.prefix(4) }
        let alone = groups.dropFirst(3).prefix(4).map { $0[0] }
        return colliding + alone
    }()

    @Test func thePoolHasCollisions() {
        #expect(Self.pool.count == 16)
        #expect(Set(Self.pool.prefix(4).map(bucket)).count == 1)
        #expect(Set(Self.pool.map(bucket)).count == 7)
    }

    /// Random nests of scopes of 1 to 7 values over the pool, shadowing types that share
    /// buckets in every order, crossing from the flat root to the index at every count; after
    /// each scope is entered and after it ends, every type reads what a dictionary model says,
    /// and so does every context captured on the way (after its scope ended, too).
    @Test(arguments: 0..<200)
    func randomNestsAgreeWithAModel(seed: Int) {
        var generator = SplitMix(state: UInt64(seed))
        var model: [Int: Int] = [:]
        var captured: [(InjectionContext, [Int: Int])] = []
        var next = 0

        func check(_ where: String) {
            for (index, type) in Self.pool.enumerated() {
                #expect(current(type) == model[index] ?? -1, "seed \(seed), \(`where`), type \(index)")
            }
            #expect(InjectionContext.current.injectedTypes.count == model.count, "seed \(seed), \(`where`)")
        }

        func nest(depth: Int) {
            let count = Int.random(in: 1...7, using: &generator)
            let chosen = (0..<count).map { _ in Int.random(in: 0..<Self.pool.count, using: &generator) }
            let values = chosen.map { index -> any Numbered in
                next += 1
                return make(Self.pool[index], next)
            }
            let saved = model
            for (index, value) in zip(chosen, values) { model[index] = value.number }  // later wins
            withInjectedAll(values) {
                check("entered at depth \(depth)")
                if Bool.random(using: &generator) { captured.append((InjectionContext.current, model)) }
                if depth < 10 {
                    for _ in 0..<Int.random(in: 0...2, using: &generator) { nest(depth: depth + 1) }
                }
                check("after the nested scopes at depth \(depth)")
            }
            model = saved
        }

        nest(depth: 0)
        check("outside")
        for (context, expected) in captured {
            for (index, type) in Self.pool.enumerated() {
                #expect(inContext(context, type) == expected[index], "seed \(seed), a captured context")
            }
            #expect(context.injectedTypes.count == expected.count)
            context.run {
                for (index, type) in Self.pool.enumerated() { #expect(current(type) == expected[index] ?? -1) }
            }
            // Rebuilt from its entries: the same values.
            let copy = InjectionContext().injecting(contentsOf: context)
            for (index, type) in Self.pool.enumerated() { #expect(inContext(copy, type) == expected[index]) }
        }
    }

    /// However many types the context holds, a nested scope keeps what it injects plus a
    /// bounded overhead: in the flat form, its root and one entry per value; in the index, its
    /// root, one leaf per value, one entry per value; and once, in the scope whose context
    /// outgrows the flat form, the flat parent's entries and their leaves too.
    @Test func aNestedScopeKeepsWhatItInjectsPlusABoundedOverhead() {
        let types = probeTypes(64)
        _ = StorageCache.take(capacity: 0)  // this thread's spare, if any: each scope below allocates
        var sizes: [Int] = []
        var indexed: [Bool] = []
        func nest(_ index: Int) {
            guard index < types.count else { return }
            withInjectedAll([make(types[index], index)]) {
                sizes.append(InjectionContext.current.storage!.footprint)
                indexed.append(InjectionContext.current.storage!.isIndexed)
                nest(index + 1)
            }
        }
        nest(0)
        #expect(InjectionContext.current.isEmpty)
        let limit = ContextIndex.flatLimit
        let valueBytes = MemoryLayout<Probe<ProbeBase>>.size
        let bound = ContextStorage.footprint(values: 1, valueBytes: valueBytes)
        let outgrowing = ContextStorage.footprint(values: 1, valueBytes: valueBytes, copies: limit)
        #expect(sizes.count == 64)
        #expect(indexed == Array(repeating: false, count: limit) + Array(repeating: true, count: 64 - limit))
        #expect(sizes.prefix(limit).allSatisfy { $0 < bound }, "\(sizes) against \(bound)")
        #expect(sizes[limit] <= outgrowing, "\(sizes[limit]) against \(outgrowing)")
        #expect(sizes.dropFirst(limit + 1).allSatisfy { $0 <= bound }, "\(sizes) against \(bound)")
    }

    /// A flat root holds one entry per type: a type injected again overwrites its entry in
    /// place (the count stays); a scope whose types, counted as if all new, would take its
    /// context past five builds the index, at once for six values; and a context that outgrows
    /// the flat form keeps reading its parent's values.
    @Test func theFlatRootAndTheIndexBuiltFromIt() {
        let types = probeTypes(7)
        func reads(_ count: Int) -> [Int] { (0..<count).map { current(types[$0]) } }
        withInjectedAll((0..<3).map { make(types[$0], $0) }) {
            #expect(!InjectionContext.current.storage!.isIndexed)
            withInjectedAll([make(types[1], 10), make(types[2], 20)]) {
                #expect(!InjectionContext.current.storage!.isIndexed)
                #expect(InjectionContext.current.storage!.slotCount == 3)
                #expect(reads(4) == [0, 10, 20, -1])
                withInjectedAll([make(types[3], 3), make(types[4], 4)]) {
                    #expect(!InjectionContext.current.storage!.isIndexed)
                    #expect(InjectionContext.current.storage!.slotCount == 5)
                    withInjectedAll([make(types[5], 5)]) {
                        #expect(InjectionContext.current.storage!.isIndexed)
                        #expect(reads(7) == [0, 10, 20, 3, 4, 5, -1])
                        #expect(InjectionContext.current.injectedTypes.count == 6)
                    }
                    withInjectedAll([make(types[0], 100)]) {  // counted as new: 6
                        #expect(InjectionContext.current.storage!.isIndexed)
                        #expect(InjectionContext.current.storage!.slotCount == 5)
                        #expect(reads(6) == [100, 10, 20, 3, 4, -1])
                    }
                }
                #expect(reads(4) == [0, 10, 20, -1])
            }
        }
        withInjectedAll((0..<6).map { make(types[$0], $0) }) {
            #expect(InjectionContext.current.storage!.isIndexed)
            // The read finds the header and the tail at constant offsets (ContextLayout).
            #expect(ContextLayout.holds(for: InjectionContext.current.storage!))
            #expect(ContextLayout.flatCountIsFirst)
            #expect(reads(7) == [0, 1, 2, 3, 4, 5, -1])
        }
        withInjectedAll([make(types[0], 0), make(types[0], 1), make(types[1], 2)]) {
            #expect(InjectionContext.current.storage!.slotCount == 2)
            #expect(current(types[0]) == 1)
        }
    }

    /// The memory figures the Performance article quotes ("Memory"), on a 64-bit platform:
    /// a context of K types bound in nested scopes of 4 (as the breadth rows bind it), and
    /// one more 1-value scope of a new type inside it. Printed, and checked: the article stays
    /// true. (Bytes asked of the allocator, which may round them up.)
    @Test func memoryByBreadth() throws {
        try #require(MemoryLayout<Int>.size == 8)
        let types = probeTypes(65)
        var rows: [(k: Int, context: Int, scope: Int)] = []
        for k in [1, 4, 16, 64] {
            _ = StorageCache.take(capacity: 0)  // no spare: every scope below allocates
            func nest(_ from: Int) {
                guard from < k else {
                    let context = InjectionContext.current.storage!.chainFootprint
                    withInjectedAll([make(types[64], -1)]) {  // a type not in the context
                        rows.append((k, context, InjectionContext.current.storage!.footprint))
                    }
                    return
                }
                let chunk = (from..<min(from + 4, k)).map { make(types[$0], $0) }
                withInjectedAll(chunk) { nest(from + chunk.count) }
            }
            nest(0)
        }
        print(rows.map { "| \($0.k) | \($0.context) | \($0.scope) |" }.joined(separator: "\n"))
        #expect(rows.map(\.context) == [240, 384, 3712, 14464])
        #expect(rows.map(\.scope) == [240, 240, 368, 368])
    }

    /// The spelled-out forms destroy what they stored, in argument order, when a scope ends
    /// (a class value's deinit runs at the end of the scope).
    @Test func scopeEndDestroysEveryValueOnce() {
        final class Tracked: AmbientValue, @unchecked Sendable {
            nonisolated(unsafe) static var alive = 0
            init() { Self.alive += 1 }
            deinit { Self.alive -= 1 }
            static var defaultValue: Tracked { Tracked() }
        }
        let pool = Self.pool
        withInjectedAll([make(pool[0], 1), make(pool[1], 2)]) {
            withInjected(Tracked(), Probe<ProbeBase>(number: 3), Tracked()) {
                #expect(Tracked.alive == 2)
                #expect(current(pool[1]) == 2)
            }
        }
        #expect(Tracked.alive == 0)
    }
}
