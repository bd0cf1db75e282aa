// SPDX-License-Identifier: Apache-2.0

// Costs as an app injects more types: each case runs in the benchmark's task
// (the process-wide read on a plain thread), inside a context of K distinct types (BreadthFixtures), for K = 1, 4, 16, 64 — the same
// cases `Benchmarks/instructions` counts on a thread.
import Ambient
import Benchmark
import BreadthFixtures
import Dependencies

/// A raw task-local the "withValue" rows bind inside the K raw bindings.
let rawProbe = TaskLocal<Probe>(wrappedValue: Probe(id: 0))

func registerBreadthBenchmarks(kilo: Benchmark.Configuration) {
    for k in breadths {
        let name = { (what: String) in "breadth K=\(k): \(what) [task]" }
        let probeFirst = breadthValues(k)
        let probeLast = breadthValues(k, probeLast: true)
        Benchmark(name("read, first-injected")) { benchmark in
            let n = benchmark.scaledIterations.count
            withNested(probeFirst[...]) { for _ in 0..<n { blackHole(Probe.current) } }
        }
        Benchmark(name("read, last-injected")) { benchmark in
            let n = benchmark.scaledIterations.count
            withNested(probeLast[...]) { for _ in 0..<n { blackHole(Probe.current) } }
        }
        Benchmark(name("read, not injected")) { benchmark in
            let n = benchmark.scaledIterations.count
            withNested(probeFirst[...]) { for _ in 0..<n { blackHole(Absent.current) } }
        }
        Benchmark(name("scope of 1, a new type")) { benchmark in
            let n = benchmark.scaledIterations.count
            withNested(probeFirst[...]) {
                for index in 0..<n { withInjected(Absent(id: index)) { blackHole(index) } }
            }
        }
        Benchmark(name("scope of 1, a type already injected")) { benchmark in
            let n = benchmark.scaledIterations.count
            withNested(probeFirst[...]) {
                for index in 0..<n { withInjected(Probe(id: index)) { blackHole(index) } }
            }
        }
        // On a plain thread: the blocking process-wide scope traps inside a task.
        Benchmark("breadth K=\(k): process-wide read [thread]") { benchmark in
            let n = benchmark.scaledIterations.count
            PlainThread.shared.run {
                withNestedProcessWide(probeFirst[...]) { for _ in 0..<n { blackHole(Probe.current) } }
            }
        }
        let locals = rawLocals.prefix(k)
        Benchmark(name("raw TaskLocal, read the outermost")) { benchmark in
            let n = benchmark.scaledIterations.count
            withRawNested(locals) { for _ in 0..<n { blackHole(locals.first!.get()) } }
        }
        Benchmark(name("raw TaskLocal, withValue")) { benchmark in
            let n = benchmark.scaledIterations.count
            withRawNested(locals) {
                for index in 0..<n { rawProbe.withValue(Probe(id: index)) { blackHole(index) } }
            }
        }
        let keys = breadthKeys(k)
        Benchmark(name("swift-dependencies, read"), configuration: kilo) { benchmark in
            let n = benchmark.scaledIterations.count
            withDependenciesNested(keys[...]) {
                for _ in 0..<n { blackHole(DependencyValues._current[ProbeKey.self]) }
            }
        }
        Benchmark(name("swift-dependencies, withDependencies of 1"), configuration: kilo) { benchmark in
            let n = benchmark.scaledIterations.count
            withDependenciesNested(keys[...]) {
                for index in 0..<n {
                    withDependencies {
                        $0[ProbeKey.self] = index
                    } operation: {
                        blackHole(index)
                    }
                }
            }
        }
    }
}
