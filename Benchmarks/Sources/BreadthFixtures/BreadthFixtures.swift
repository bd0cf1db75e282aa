// SPDX-License-Identifier: Apache-2.0

// Contexts holding K distinct ambient types, shared by the instruction counts and
// the time benchmarks: K - 1 `Filler<…>` types made at run time around `Probe`, bound as an
// app's test trait binds its fakes (nested scopes of 4 values); beside them the same shapes
// with raw `@TaskLocal`s (one per type, as code without Ambient declares them) and
// swift-dependencies keys (set in nested `withDependencies`).
import Ambient
import Dependencies

/// The type every breadth case reads or re-injects.
public struct Probe: AmbientValue {
    /// Which value this is.
    public let id: Int
    /// A value numbered `id`.
    public init(id: Int) { self.id = id }
    /// Probe 0.
    public static var defaultValue: Probe { Probe(id: 0) }
}

/// A type no breadth context injects: the "not injected" read, and the "new type" scope.
public struct Absent: AmbientValue {
    /// Which value this is.
    public let id: Int
    /// A value numbered `id`.
    public init(id: Int) { self.id = id }
    /// Absent 0.
    public static var defaultValue: Absent { Absent(id: 0) }
}

/// The breadths the rows are measured at.
public let breadths = [1, 4, 16, 64]

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

/// `Probe` as a swift-dependencies key: the one each read asks for.
public enum ProbeKey: DependencyKey {
    /// 0.
    public static var liveValue: Int { 0 }
    /// 0.
    public static var testValue: Int { 0 }
}

enum FillerBase {}

/// A context of `k` types: `Probe` first (or last) and `k - 1` fillers.
public func breadthValues(_ k: Int, probeLast: Bool = false) -> [any Injectable] {
    func grow<Tag>(_: Tag.Type, _ left: Int, _ into: inout [any Injectable]) {
        guard left > 0 else { return }
        into.append(Filler<Tag>(id: left))
        grow(Filler<Tag>.self, left - 1, &into)
    }
    var values: [any Injectable] = []
    grow(FillerBase.self, k - 1, &values)
    return probeLast ? values + [Probe(id: 1)] : [Probe(id: 1)] + values
}

/// A setter of one swift-dependencies key.
public typealias KeySetter = @Sendable (inout DependencyValues) -> Void

/// Setters of `k` distinct swift-dependencies keys, `ProbeKey` first.
public func breadthKeys(_ k: Int) -> [KeySetter] {
    func grow<Tag>(_: Tag.Type, _ left: Int, _ into: inout [KeySetter]) {
        guard left > 0 else { return }
        into.append { $0[FillerKey<Tag>.self] = left }
        grow(FillerKey<Tag>.self, left - 1, &into)
    }
    var keys: [KeySetter] = [{ $0[ProbeKey.self] = 1 }]
    grow(FillerBase.self, k - 1, &keys)
    return keys
}

/// Runs `body` inside nested `withInjected` scopes binding `values`, 4 per scope.
public func withNested(_ values: ArraySlice<any Injectable>, _ body: () -> Void) {
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
public func withNestedProcessWide(_ values: ArraySlice<any Injectable>, _ body: () -> Void) {
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

/// One raw task-local per type, as code without Ambient declares them.
public let rawLocals = (0..<64).map { _ in TaskLocal<Probe>(wrappedValue: Probe(id: 0)) }

/// Runs `body` inside `locals.count` nested raw bindings, one per task-local.
public func withRawNested(_ locals: ArraySlice<TaskLocal<Probe>>, _ body: () -> Void) {
    guard let first = locals.first else { return body() }
    first.withValue(Probe(id: locals.count)) { withRawNested(locals.dropFirst(), body) }
}

/// Runs `body` inside nested `withDependencies` setting `keys`, 4 per call.
public func withDependenciesNested(_ keys: ArraySlice<KeySetter>, _ body: () -> Void) {
    guard !keys.isEmpty else { return body() }
    let head = keys.prefix(4)
    withDependencies {
        for set in head { set(&$0) }
    } operation: {
        withDependenciesNested(keys.dropFirst(head.count), body)
    }
}
