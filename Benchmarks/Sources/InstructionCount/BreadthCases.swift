// SPDX-License-Identifier: Apache-2.0

// Costs as an app injects more types (issue 30): every case runs inside a context holding K
// distinct types, bound as an app's test trait binds its fakes (nested scopes of 4 values),
// for K = 1, 4, 16, 64. `Stamp` is the first type bound ("first-injected") or the last
// ("last-injected"); the other K - 1 are `Filler<…>` types made at run time. Beside them, the
// same shapes with raw `@TaskLocal`s (K of them, one per type, as a user without Ambient
// would write) and swift-dependencies 1.17 (K keys set in nested `withDependencies`).
import Ambient
import Dependencies

/// A type per nesting level of `Tag`: `Filler<Base>`, `Filler<Filler<Base>>`, … — as many
/// distinct ambient types as a case needs, made at run time.
struct Filler<Tag>: AmbientValue {
    let id: Int
    static var defaultValue: Filler { Filler(id: 0) }
}

/// A swift-dependencies key per nesting level, as `Filler` is for Ambient.
struct FillerKey<Tag>: DependencyKey {
    static var liveValue: Int { 0 }
    static var testValue: Int { 0 }
}

/// `Stamp` as a swift-dependencies key: the one each read asks for.
enum StampKey: DependencyKey {
    static var liveValue: Int { 0 }
    static var testValue: Int { 0 }
}

enum FillerBase {}

/// `count` values of distinct `Filler` types.
func fillers(_ count: Int) -> [any Injectable] {
    func grow<Tag>(_: Tag.Type, _ left: Int, _ into: inout [any Injectable]) {
        guard left > 0 else { return }
        into.append(Filler<Tag>(id: left))
        grow(Filler<Tag>.self, left - 1, &into)
    }
    var values: [any Injectable] = []
    grow(FillerBase.self, count, &values)
    return values
}

/// A setter of one swift-dependencies key.
typealias KeySetter = @Sendable (inout DependencyValues) -> Void

/// Setters of `count` distinct swift-dependencies keys.
func fillerKeys(_ count: Int) -> [KeySetter] {
    func grow<Tag>(_: Tag.Type, _ left: Int, _ into: inout [KeySetter]) {
        guard left > 0 else { return }
        into.append { $0[FillerKey<Tag>.self] = left }
        grow(FillerKey<Tag>.self, left - 1, &into)
    }
    var keys: [KeySetter] = []
    grow(FillerBase.self, count, &keys)
    return keys
}

/// Runs `body` inside nested `withInjected` scopes binding `values`, 4 per scope.
func withNested(_ values: ArraySlice<any Injectable>, _ body: () -> Void) {
    func one<A: Injectable>(_ a: A, _ body: () -> Void) { withInjected(a, operation: body) }
    func two<A: Injectable, B: Injectable>(_ a: A, _ b: B, _ body: () -> Void) {
        withInjected(a, b, operation: body)
    }
    func three<A: Injectable, B: Injectable, C: Injectable>(_ a: A, _ b: B, _ c: C, _ body: () -> Void) {
        withInjected(a, b, c, operation: body)
    }
    func four<A: Injectable, B: Injectable, C: Injectable, D: Injectable>(
        _ a: A, _ b: B, _ c: C, _ d: D, _ body: () -> Void
    ) {
        withInjected(a, b, c, d, operation: body)
    }
    let head = Array(values.prefix(4))
    let rest = values.dropFirst(head.count)
    switch head.count {
    case 0: body()
    case 1: one(head[0]) { withNested(rest, body) }
    case 2: two(head[0], head[1]) { withNested(rest, body) }
    case 3: three(head[0], head[1], head[2]) { withNested(rest, body) }
    default: four(head[0], head[1], head[2], head[3]) { withNested(rest, body) }
    }
}

/// Runs `body` inside nested process-wide scopes binding `values`, 4 per scope.
func withNestedProcessWide(_ values: ArraySlice<any Injectable>, _ body: () -> Void) {
    func one<A: Injectable>(_ a: A, _ body: () -> Void) { withInjectedProcessWide(a, operation: body) }
    func four<A: Injectable, B: Injectable, C: Injectable, D: Injectable>(
        _ a: A, _ b: B, _ c: C, _ d: D, _ body: () -> Void
    ) {
        withInjectedProcessWide(a, b, c, d, operation: body)
    }
    let head = Array(values.prefix(values.count >= 4 ? 4 : 1))
    let rest = values.dropFirst(head.count)
    switch head.count {
    case 0: body()
    case 1: one(head[0]) { withNestedProcessWide(rest, body) }
    default: four(head[0], head[1], head[2], head[3]) { withNestedProcessWide(rest, body) }
    }
}

/// Runs `body` inside `locals.count` nested raw bindings, one per task-local.
func withRawNested(_ locals: ArraySlice<TaskLocal<Stamp>>, _ body: () -> Void) {
    guard let first = locals.first else { return body() }
    first.withValue(Stamp(id: locals.count)) { withRawNested(locals.dropFirst(), body) }
}

/// Runs `body` inside nested `withDependencies` setting `keys` (and `StampKey` first), 4 per call.
func withDependenciesNested(_ keys: ArraySlice<KeySetter>, _ body: () -> Void) {
    guard !keys.isEmpty else { return body() }
    let head = keys.prefix(4)
    withDependencies {
        for set in head { set(&$0) }
    } operation: {
        withDependenciesNested(keys.dropFirst(head.count), body)
    }
}

/// One task-local per type, as code without Ambient declares them.
let rawLocals = (0..<64).map { _ in TaskLocal<Stamp>(wrappedValue: Stamp(id: 0)) }

let breadths = [1, 4, 16, 64]

func breadthCases() -> [String: (Int) -> Void] {
    var cases: [String: (Int) -> Void] = [:]
    for k in breadths {
        let name = { (what: String) in "breadth K=\(k): \(what)" }
        let others = fillers(k - 1)
        let stampFirst = [Stamp(id: 1) as any Injectable] + others
        let stampLast = others + [Stamp(id: 1) as any Injectable]
        cases[name("read, first-injected")] = { count in
            withNested(stampFirst[...]) { for _ in 0..<count { consume(Stamp.current) } }
        }
        cases[name("read, last-injected")] = { count in
            withNested(stampLast[...]) { for _ in 0..<count { consume(Stamp.current) } }
        }
        cases[name("read, not injected")] = { count in
            withNested(stampFirst[...]) { for _ in 0..<count { consume(Other.current) } }
        }
        cases[name("scope of 1, a new type")] = { count in
            withNested(stampFirst[...]) {
                for index in 0..<count { withInjected(Other(id: index)) { consume(index) } }
            }
        }
        cases[name("scope of 1, a type already injected")] = { count in
            withNested(stampFirst[...]) {
                for index in 0..<count { withInjected(Stamp(id: index)) { consume(index) } }
            }
        }
        cases[name("process-wide read")] = { count in
            withNestedProcessWide(stampFirst[...]) { for _ in 0..<count { consume(Stamp.current) } }
        }
        let locals = rawLocals.prefix(k)
        cases[name("raw TaskLocal, read the outermost")] = { count in
            withRawNested(locals) { for _ in 0..<count { consume(locals.first!.get()) } }
        }
        cases[name("raw TaskLocal, withValue")] = { count in
            withRawNested(locals) {
                for index in 0..<count { raw.withValue(Stamp(id: index)) { consume(index) } }
            }
        }
        let keys: [KeySetter] = [{ $0[StampKey.self] = 1 }] + fillerKeys(k - 1)
        cases[name("swift-dependencies, read")] = { count in
            withDependenciesNested(keys[...]) {
                for _ in 0..<count { consume(DependencyValues._current[StampKey.self]) }
            }
        }
        cases[name("swift-dependencies, withDependencies of 1")] = { count in
            withDependenciesNested(keys[...]) {
                for index in 0..<count {
                    withDependencies {
                        $0[StampKey.self] = index
                    } operation: {
                        consume(index)
                    }
                }
            }
        }
    }
    return cases
}
