// SPDX-License-Identifier: Apache-2.0

// Costs as an app injects more types: every case runs inside a context holding K
// distinct types (BreadthFixtures), for K = 1, 4, 16, 64, on the main thread. `Probe` is the
// first type bound ("first-injected") or the last ("last-injected").
import Ambient
import BreadthFixtures
import Dependencies

/// A raw task-local the "withValue" rows bind inside the K raw bindings.
let rawProbe = TaskLocal<Probe>(wrappedValue: Probe(id: 0))

func breadthCases() -> [String: (Int) -> Void] {
    var cases: [String: (Int) -> Void] = [:]
    for k in breadths {
        let name = { (what: String) in "breadth K=\(k): \(what)" }
        let probeFirst = breadthValues(k)
        let probeLast = breadthValues(k, probeLast: true)
        cases[name("read, first-injected")] = { count in
            withNested(probeFirst[...]) { for _ in 0..<count { consume(Probe.current) } }
        }
        cases[name("read, last-injected")] = { count in
            withNested(probeLast[...]) { for _ in 0..<count { consume(Probe.current) } }
        }
        cases[name("read, not injected")] = { count in
            withNested(probeFirst[...]) { for _ in 0..<count { consume(Absent.current) } }
        }
        cases[name("scope of 1, a new type")] = { count in
            withNested(probeFirst[...]) {
                for index in 0..<count { withInjected(Absent(id: index)) { consume(index) } }
            }
        }
        cases[name("scope of 1, a type already injected")] = { count in
            withNested(probeFirst[...]) {
                for index in 0..<count { withInjected(Probe(id: index)) { consume(index) } }
            }
        }
        cases[name("process-wide read")] = { count in
            withNestedProcessWide(probeFirst[...]) { for _ in 0..<count { consume(Probe.current) } }
        }
        let locals = rawLocals.prefix(k)
        cases[name("raw TaskLocal, read the outermost")] = { count in
            withRawNested(locals) { for _ in 0..<count { consume(locals.first!.get()) } }
        }
        cases[name("raw TaskLocal, withValue")] = { count in
            withRawNested(locals) {
                for index in 0..<count { rawProbe.withValue(Probe(id: index)) { consume(index) } }
            }
        }
        let keys = breadthKeys(k)
        cases[name("swift-dependencies, read")] = { count in
            withDependenciesNested(keys[...]) {
                for _ in 0..<count { consume(DependencyValues._current[ProbeKey.self]) }
            }
        }
        cases[name("swift-dependencies, withDependencies of 1")] = { count in
            withDependenciesNested(keys[...]) {
                for index in 0..<count {
                    withDependencies {
                        $0[ProbeKey.self] = index
                    } operation: {
                        consume(index)
                    }
                }
            }
        }
    }
    // The one scope whose context outgrows the flat form: five types (a scope of 4, then 1),
    // and a sixth, new, which builds the index from the five (ContextStorage.swift).
    cases["scope: withInjected, 1 value, a sixth type over five (empty body)"] = { count in
        withNested(breadthValues(5)[...]) {
            for index in 0..<count { withInjected(Absent(id: index)) { consume(index) } }
        }
    }
    return cases
}
