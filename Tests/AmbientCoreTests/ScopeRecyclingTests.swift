// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation
import Testing

/// A scope's storage is reused by the next scope on its thread only when nothing else holds
/// it (ContextStorage+Recycling.swift). Each test here keeps a scope's context alive past the
/// scope in one of the ways users do, then runs more scopes on the same thread: if a held
/// storage were reused, the held context would read the later scope's values, or freed ones.
@Suite("Scope storage reuse never touches a context still in use")
struct ScopeRecyclingTests {
    @Test func aCapturedContextKeepsItsValuesWhileLaterScopesRun() {
        let captured = withInjected(Tag("first"), Number(value: 1)) { InjectionContext.current }
        for round in 0..<100 {
            withInjected(Tag("later \(round)"), Number(value: round)) {
                #expect(Tag.current == Tag("later \(round)"))
            }
            withInjected(Wide(a: "w", b: [round], c: 1, d: 2, e: 3, f: "f")) {}
        }
        #expect(captured[Tag.self] == Tag("first"))
        #expect(captured[Number.self] == Number(value: 1))
        captured.run { #expect(Tag.current == Tag("first")) }
    }

    @Test func anUnstructuredTaskStartedInAScopeSeesItsValuesAfterTheScopeEnds() async {
        let gate = AsyncGate()
        let task = withInjected(Tag("inherited")) {
            Task {
                await gate.wait()
                return Tag.current
            }
        }
        for round in 0..<100 {
            withInjected(Tag("later \(round)")) { _ = Tag.current }
        }
        gate.open()
        #expect(await task.value == Tag("inherited"))
    }

    @Test func aBoundClosureKeepsItsValuesWhileLaterScopesRun() {
        let bound = withInjected(Tag("bound")) { InjectionContext.current.bind { Tag.current } }
        for round in 0..<100 {
            withInjected(Tag("later \(round)")) { _ = Tag.current }
        }
        #expect(bound() == Tag("bound"))
    }

    @Test func nestedScopesSeeTheirOwnAndOuterValuesThroughReuse() {
        for round in 0..<200 {
            withInjected(Tag("outer \(round)")) {
                withInjected(Number(value: round)) {
                    #expect(Tag.current == Tag("outer \(round)"))
                    #expect(Number.current == Number(value: round))
                }
                withInjected(Tag("inner \(round)"), Aligned(vector: SIMD4(repeating: Double(round)))) {
                    #expect(Tag.current == Tag("inner \(round)"))
                    #expect(Aligned.current.vector == SIMD4(repeating: Double(round)))
                    #expect(Number.current == Number.defaultValue)
                }
                #expect(Tag.current == Tag("outer \(round)"))
            }
        }
    }

    /// Many threads and tasks, each nesting scopes of different sizes and sometimes keeping
    /// a context past its scope: every read sees its own scope's values (run under
    /// ThreadSanitizer and AddressSanitizer in CI).
    @Test func stressManyThreadsReuseTheirOwnStorages() async {
        let failures = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            var kept: [(InjectionContext, Int)] = []
            for round in 0..<2_000 {
                let value = worker * 100_000 + round
                let context = withInjected(Number(value: value)) { () -> InjectionContext in
                    let inner = withInjected(Tag("\(value)"), Wide(a: "\(value)", b: [value], c: 0, d: 0, e: 0, f: ""))
                    {
                        Number.current.value == value && Tag.current.name == "\(value)" ? InjectionContext.current : nil
                    }
                    if inner == nil { failures.withLock { $0 += 1 } }
                    return InjectionContext.current
                }
                if round % 7 == 0 { kept.append((context, value)) }
            }
            for (context, value) in kept where context[Number.self]?.value != value {
                failures.withLock { $0 += 1 }
            }
        }
        await withTaskGroup(of: Bool.self) { group in
            for worker in 0..<64 {
                group.addTask {
                    var ok = true
                    for round in 0..<200 {
                        await withInjected(Number(value: worker * 1_000 + round)) {
                            await Task.yield()  // may resume on another thread: ends there
                            ok = ok && Number.current.value == worker * 1_000 + round
                        }
                    }
                    return ok
                }
            }
            for await ok in group where !ok { failures.withLock { $0 += 1 } }
        }
        #expect(failures.get() == 0)
    }
}
