// SPDX-License-Identifier: Apache-2.0

// Background work handed to a queue: a carried submission (CarryingQueue, the scope
// captured and bound around the work) against a raw `DispatchQueue.async` and against the
// per-call `bind` it replaces, and the same submission counted by a tracked and a driven
// `BackgroundQueue` (what a test's wait costs per submission). Each operation submits one
// empty block to a serial queue and the sample waits for the last (`sync`, which on a driven
// queue runs after the driven order's earlier work), so the time is a submission and its
// run. `run` lists "queue:" in KILO: each sample submits 1,000.
import Ambient
import AmbientTestClock
import Benchmark
import Dispatch

func registerQueueBenchmarks(configuration: Benchmark.Configuration) {
    let raw = DispatchQueue(label: "bench.raw")
    let carrying = CarryingQueue(label: "bench.carrying")
    func kilo(_ name: String, drain queue: DispatchQueue, _ submit: @escaping @Sendable () -> Void) {
        Benchmark("\(name) [task]", configuration: configuration) { benchmark in
            withInjected(injectedClock) {
                for _ in benchmark.scaledIterations { submit() }
                queue.sync {}
            }
        }
    }
    func counted(_ name: String, _ background: @escaping @Sendable () -> BackgroundQueue) {
        Benchmark("\(name) [task]", configuration: configuration) { benchmark in
            withInjected(injectedClock, background()) {
                for _ in benchmark.scaledIterations { carrying.async { blackHole(Clock.current) } }
                carrying.sync {}
            }
        }
    }
    kilo("queue: DispatchQueue.async, raw", drain: raw) {
        raw.async { blackHole(0) }
    }
    kilo("queue: DispatchQueue.async of a bound closure", drain: raw) {
        raw.async(execute: InjectionContext.current.bind { blackHole(Clock.current) })
    }
    kilo("queue: CarryingQueue.async", drain: carrying.queue) {
        carrying.async { blackHole(Clock.current) }
    }
    counted("queue: CarryingQueue.async, tracked()") { .tracked() }
    counted("queue: CarryingQueue.async, driven(by:)") { .driven(by: TestClock()) }
}
