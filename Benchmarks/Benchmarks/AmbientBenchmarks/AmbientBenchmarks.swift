// SPDX-License-Identifier: Apache-2.0

// The scope-overhead suite. Every case runs as its own process (package-benchmark's rule),
// so "never injected" really is a process that never injected anything.
//
// The value read is the shipped `Clock` (`Clock.live` by default, `Clock.fixed` injected);
// 3-value scopes inject `Clock`, `Defaults` and `Logger`.
//
// Naming: "<group>: <case> [task|thread]". Each sample runs the case 1,000,000 times
// (`.mega`), except the cases listed in `run`'s KILO set (1,000 times). `run` turns the
// samples into ns/op and the ratio table.
import Ambient
import Benchmark
import Dependencies
import Foundation
import ServiceContextModule
import Synchronization

/// The suite's configuration: each sample runs a case `scaling` times. Allocations are
/// counted for the table; they are checked, per operation, by `Benchmarks/instructions
/// --check` against `Allocations` (callgrind: the same on every machine).
func configuration(_ scaling: BenchmarkScalingFactor) -> Benchmark.Configuration {
    .init(
        metrics: [.throughput, .wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 3,
        scalingFactor: scaling,
        maxDuration: .milliseconds(600),
        maxIterations: 300
    )
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = configuration(.mega)
    let kilo = configuration(.kilo)

    // MARK: - Floor

    both("floor: global let read") { n in
        for _ in 0..<n { blackHole(globalClock) }
    }
    both("floor: global read through an accessor") { n in
        for _ in 0..<n { blackHole(clockAccessor()) }
    }
    both("floor: global let read, trivial value") { n in
        for _ in 0..<n { blackHole(globalCounter) }
    }
    both("floor: allocate and free one object") { n in
        for _ in 0..<n { blackHole(SnapshotSized()) }
    }
    // What a scope's binding pays to hold its snapshot: one atomic increment and decrement.
    both("floor: retain and release one object") { n in
        let object = Unmanaged.passUnretained(sharedObject)
        for _ in 0..<n {
            blackHole(object.retain())
            object.release()
        }
    }
    both("floor: Atomic<Int> load") { n in
        for _ in 0..<n { blackHole(atomicFloor.load(ordering: .acquiring)) }  // as Ambient's flag check
    }

    // MARK: - Raw @TaskLocal

    both("raw: TaskLocal read, unbound") { n in
        markOtherBindingMade()
        for _ in 0..<n { blackHole(Raw.clock) }
    }
    both("raw: TaskLocal read, bound") { n in
        Raw.$clock.withValue(injectedClock) {
            for _ in 0..<n { blackHole(Raw.clock) }
        }
    }
    both("raw: 3 TaskLocals read, bound, each") { n in
        Raw.$clock.withValue(injectedClock) {
            Raw.$defaults.withValue(injectedDefaults) {
                Raw.$logger.withValue(injectedLogger) {
                    for _ in 0..<(n / 3) {
                        blackHole(Raw.clock)
                        blackHole(Raw.defaults)
                        blackHole(Raw.logger)
                    }
                }
            }
        }
    }
    both("raw: TaskLocal withValue") { n in
        for _ in 0..<n { Raw.$clock.withValue(injectedClock) { blackHole(Raw.clock) } }
    }
    Benchmark("raw: TaskLocal withValue async [task]") { benchmark in
        for _ in benchmark.scaledIterations {
            await Raw.$clock.withValue(injectedClock) { await asyncSink(Raw.clock) }
        }
    }

    // MARK: - Ambient reads

    both("read: never injected (fast path)") { n in
        for _ in 0..<n { blackHole(Clock.current) }
    }
    both("read: never injected (fast path), trivial value") { n in
        for _ in 0..<n { blackHole(Counter.current) }
    }
    // The system singletons' providers, never injected: each beside Clock's read.
    both("read: never injected, Region") { n in
        for _ in 0..<n { blackHole(Region.current) }
    }
    both("read: never injected, ProcessEnvironment") { n in
        for _ in 0..<n { blackHole(ProcessEnvironment.current) }
    }
    both("read: never injected, FileSystem") { n in
        for _ in 0..<n { blackHole(FileSystem.current) }
    }
    both("read: never injected, Notifications") { n in
        for _ in 0..<n { blackHole(Notifications.current) }
    }
    both("read: never injected, NetworkSession") { n in
        for _ in 0..<n { blackHole(NetworkSession.current) }
    }
    both("read: never injected, MainQueue") { n in
        for _ in 0..<n { blackHole(MainQueue.current) }
    }
    both("read: injected elsewhere, unbound here") { n in
        markOtherBindingMade()
        for _ in 0..<n { blackHole(Clock.current) }
    }
    both("read: scope of 1") { n in
        withInjected(injectedClock) {
            for _ in 0..<n { blackHole(Clock.current) }
        }
    }
    // What the borrowed read (Binding.swift) buys: the same lookup through `TaskLocal.get()`,
    // which copies the bound context out (a generic call and a retain/release pair).
    both("read: scope of 1, via TaskLocal.get()") { n in
        viaGet.withValue(InjectionContext().injecting(injectedClock)) {
            for _ in 0..<n { blackHole(viaGet.get()[Clock.self] ?? Clock.defaultValue) }
        }
    }
    both("read: scope of 3, each") { n in
        withInjected(injectedClock, injectedDefaults, injectedLogger) {
            for _ in 0..<(n / 3) {
                blackHole(Clock.current)
                blackHole(Defaults.current)
                blackHole(Logger.current)
            }
        }
    }
    for depth in [1, 10, 100] {
        both("read: \(depth) nested scopes") { n in
            nested(depth) {
                for _ in 0..<n { blackHole(Clock.current) }
            }
        }
    }
    // The blocking process-wide form refuses to run inside a task: the task variant uses
    // the async form around the same synchronous reads.
    Benchmark("read: process-wide scope [task]") { benchmark in
        let n = benchmark.scaledIterations.count
        await withInjectedProcessWide(injectedClock) { () async in
            for _ in 0..<n { blackHole(Clock.current) }
        }
    }
    Benchmark("read: process-wide scope [thread]") { benchmark in
        let n = benchmark.scaledIterations.count
        PlainThread.shared.run {
            withInjectedProcessWide(injectedClock) {
                for _ in 0..<n { blackHole(Clock.current) }
            }
        }
    }
    // `@Captured` (Captured.swift): an object made in a scope, read in a scope that injects
    // the type (the surrounding scope wins), and read where nothing is bound (a callback
    // on a queue: the creating scope answers).
    both("read: @Captured, in a scope") { n in
        withInjected(injectedClock) {
            let object = ClockUser()
            for _ in 0..<n { blackHole(object.clock) }
        }
    }
    both("read: @Captured, outside any scope") { n in
        let object = withInjected(injectedClock) { ClockUser() }
        for _ in 0..<n { blackHole(object.clock) }
    }
    both("read: captured context's run") { n in
        let context = InjectionContext().injecting(injectedClock)
        context.run {
            for _ in 0..<n { blackHole(Clock.current) }
        }
    }

    // MARK: - Ambient scopes

    both("scope: withInjected, 1 value") { n in
        for _ in 0..<n { withInjected(injectedClock) { blackHole(Clock.current) } }
    }
    both("scope: withInjected, 3 values") { n in
        for _ in 0..<n {
            withInjected(injectedClock, injectedDefaults, injectedLogger) { blackHole(Clock.current) }
        }
    }
    // The same three slots without the Logger: with the SwiftLog trait (on here), a scope
    // that injects a Logger binds swift-log's task-local logger too.
    both("scope: withInjected, 3 values, no Logger") { n in
        for _ in 0..<n {
            withInjected(injectedClock, injectedDefaults, injectedUUIDs) { blackHole(Clock.current) }
        }
    }
    Benchmark("scope: withInjected async, 3 values, no Logger [task]") { benchmark in
        for _ in benchmark.scaledIterations {
            await withInjected(injectedClock, injectedDefaults, injectedUUIDs) {
                await asyncSink(Clock.current)
            }
        }
    }
    Benchmark("scope: withInjected async, 1 value [task]") { benchmark in
        for _ in benchmark.scaledIterations {
            await withInjected(injectedClock) { await asyncSink(Clock.current) }
        }
    }
    Benchmark("scope: withInjected async, 3 values [task]") { benchmark in
        for _ in benchmark.scaledIterations {
            await withInjected(injectedClock, injectedDefaults, injectedLogger) {
                await asyncSink(Clock.current)
            }
        }
    }
    // What the spelled-out one- and three-value overloads (Injection.swift) buy: the same
    // scopes through the variadic parameter-pack path.
    both("scope: withInjected variadic, 1 value") { n in
        for _ in 0..<n { withInjectedViaPack(injectedClock) { blackHole(Clock.current) } }
    }
    both("scope: withInjected variadic, 3 values") { n in
        for _ in 0..<n {
            withInjectedViaPack(injectedClock, injectedDefaults, injectedLogger) { blackHole(Clock.current) }
        }
    }
    both("scope: withInjected throwing, 1 value") { n in
        for _ in 0..<n {
            try? withInjected(injectedClock) { () throws(BenchError) in try maybeThrow(Clock.current) }
        }
    }
    Benchmark("scope: withInjectedProcessWide [thread]", configuration: kilo) { benchmark in
        let n = benchmark.scaledIterations.count
        PlainThread.shared.run {
            for _ in 0..<n { withInjectedProcessWide(injectedClock) { blackHole(Clock.current) } }
        }
    }
    Benchmark("scope: withInjectedProcessWide async [task]", configuration: kilo) { benchmark in
        for _ in benchmark.scaledIterations {
            await withInjectedProcessWide(injectedClock) { await asyncSink(Clock.current) }
        }
    }
    both("context: InjectionContext.current capture") { n in
        withInjected(injectedClock) {
            for _ in 0..<n { blackHole(InjectionContext.current) }
        }
    }
    both("context: run") { n in
        let context = InjectionContext().injecting(injectedClock)
        for _ in 0..<n { context.run { blackHole(Clock.current) } }
    }
    both("context: bind + call") { n in
        withInjected(injectedClock) {
            for _ in 0..<n {
                let bound = InjectionContext.current.bind { Clock.current }
                blackHole(bound())
            }
        }
    }

    // MARK: - Peers

    Benchmark("peer: swift-dependencies withDependencies [task]", configuration: kilo) { benchmark in
        for _ in benchmark.scaledIterations {
            withDependencies {
                $0.date = .constant(fixedDate)
            } operation: {
                @Dependency(\.date) var date
                blackHole(date.now)
            }
        }
    }
    Benchmark("peer: swift-dependencies read, outside a scope [task]", configuration: kilo) { benchmark in
        for _ in benchmark.scaledIterations {
            @Dependency(\.date) var date
            blackHole(date)
        }
    }
    Benchmark("peer: swift-dependencies read, inside a scope [task]", configuration: kilo) { benchmark in
        withDependencies {
            $0.date = .constant(fixedDate)
        } operation: {
            for _ in benchmark.scaledIterations {
                @Dependency(\.date) var date
                blackHole(date)
            }
        }
    }
    both("peer: locked global swap (the swizzle)") { n in
        for _ in 0..<n { Swizzled.with(injectedClock) { blackHole(Swizzled.current) } }
    }
    both("peer: locked global read") { n in
        for _ in 0..<n { blackHole(Swizzled.current) }
    }
    both("peer: ServiceContext.withValue") { n in
        for _ in 0..<n {
            var context = ServiceContext.topLevel
            context[ClockKey.self] = injectedClock
            ServiceContext.withValue(context) { blackHole(ServiceContext.current?[ClockKey.self]) }
        }
    }
    both("peer: ServiceContext.current read, bound") { n in
        var context = ServiceContext.topLevel
        context[ClockKey.self] = injectedClock
        ServiceContext.withValue(context) {
            for _ in 0..<n { blackHole(ServiceContext.current?[ClockKey.self]) }
        }
    }

    registerBridgeBenchmarks(configuration: kilo)
    registerCarryingBenchmarks(configuration: kilo)
    registerQueueBenchmarks(configuration: kilo)
    registerPortBenchmarks(configuration: kilo)
    registerBreadthBenchmarks(kilo: kilo)

    // MARK: - Scale: N readers at once, each inside its own scope

    // The readers read a value without references (`Counter`): package-benchmark's
    // instrumentation makes every retain/release touch shared state, which would hide how
    // the read path itself scales. package-benchmark also runs an async benchmark on a new
    // task while blocking one thread of the cooperative pool, so on this 2-core machine
    // tasks get ONE pool thread: the task rows show that 1,000 tasks cost no more per read
    // than 1 (no shared lock or contended atomic); the thread rows show throughput growing
    // with the cores.
    for tasks in [1, 2, 16, 1_000] {
        Benchmark("scale: \(tasks) tasks reading in their own scopes [task]") { benchmark in
            let total = benchmark.scaledIterations.count
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<tasks {
                    let share = total / tasks + (index < total % tasks ? 1 : 0)
                    group.addTask {
                        withInjected(Counter(value: index)) {
                            for _ in 0..<share { blackHole(Counter.current) }
                        }
                    }
                }
            }
        }
    }
    for threads in [1, 2, 16] {
        Benchmark("scale: \(threads) threads reading in their own scopes [thread]") { benchmark in
            let total = benchmark.scaledIterations.count
            PlainThread.pool(threads).runAll { index in
                let share = total / threads + (index < total % threads ? 1 : 0)
                withInjected(Counter(value: index)) {
                    for _ in 0..<share { blackHole(Counter.current) }
                }
            }
        }
    }
}

// MARK: - Case helpers

/// Registers `body` twice: run inside the benchmark's task, and on a plain thread that is
/// not a task (where Swift keeps task-locals per thread).
func both(_ name: String, _ body: @escaping @Sendable (Int) -> Void) {
    Benchmark("\(name) [task]") { benchmark in
        body(benchmark.scaledIterations.count)
    }
    Benchmark("\(name) [thread]") { benchmark in
        let n = benchmark.scaledIterations.count
        PlainThread.shared.run { body(n) }
    }
}

/// `depth` nested scopes: the outermost injects the value read, every inner one another
/// type, so the read has to look past all of them.
func nested(_ depth: Int, _ body: () -> Void) {
    func level(_ remaining: Int) {
        if remaining == 0 { return body() }
        withInjected(Filler(value: remaining)) { level(remaining - 1) }
    }
    withInjected(injectedClock) { level(depth - 1) }
}

/// Makes some other thread bind something once, so reads here take the "has anything
/// ever been injected?" slow path while this task or thread has no binding of its own.
func markOtherBindingMade() {
    let done = DispatchSemaphore(value: 0)
    Thread {
        withInjected(injectedClock) {}
        Raw.$clock.withValue(injectedClock) {}
        done.signal()
    }.start()
    done.wait()
}

@inline(never)
func asyncSink<T>(_ value: T) async {
    blackHole(value)
}

struct BenchError: Error {}

@inline(never)
func maybeThrow(_ value: Clock) throws(BenchError) {
    if value.now < fixedDate { throw BenchError() }
    blackHole(value)
}
