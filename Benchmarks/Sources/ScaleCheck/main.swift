// SPDX-License-Identifier: Apache-2.0

// Read throughput with 1 to 16 concurrent readers, Ambient beside its peers, measured
// outside package-benchmark (whose instrumentation serialises threads: under it, two
// threads run no faster than one). `Benchmarks/run` prints these tables after the main one.
//
//   swift run -c release ScaleCheck [--quick]
//
// Every reader reads a trivially copyable value (no reference count: with a class value
// every reader of a shared object contends on its count, which no mechanism can avoid), in
// a loop, inside a binding of its own, except where the mechanism is global by design (the
// process-wide scope, the lock-guarded global). Rows:
//
//   Ambient, own scope              withInjected(Stamp(i)) { … Stamp.current … }
//   Ambient, process-wide scope     readers with no binding, one withInjectedProcessWide around them
//   raw @TaskLocal                  Raw.$stamp.withValue(Stamp(i)) { … Raw.stamp … }
//   ServiceContext.current          ServiceContext.withValue(…) { … ServiceContext.current?[StampKey.self] … }
//   swift-dependencies              withDependencies { $0.date = … } operation: { … @Dependency(\.date) … }
//   lock-guarded global (swizzle)   a global behind a Mutex, as the Objective-C swizzle's replacement
//
// Built as one static binary it runs on any Linux x86_64 machine without Swift (see the
// Performance article):
//   swift build -c release --product ScaleCheck --static-swift-stdlib
import Ambient
import Dependencies
import Dispatch
import Foundation
import ServiceContextModule
import Synchronization

/// The value every reader reads.
struct Stamp: AmbientValue {
    let id: Int
    static var defaultValue: Stamp { Stamp(id: 0) }
}

@inline(never)
func consume<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

enum Raw {
    @TaskLocal static var stamp = Stamp(id: 0)
}

enum StampKey: ServiceContextKey {
    typealias Value = Stamp
}

/// The swizzle's replacement: one global, read and swapped under a lock.
let swizzled = Mutex(Stamp(id: 0))

/// A way of reading an ambient value, and how many reads make a ~10 ms measurement.
struct Mechanism: Sendable {
    let name: String
    let reads: Int
    /// Runs `count` reads as reader `index`, inside that reader's own binding.
    let readLoop: @Sendable (_ index: Int, _ count: Int) -> Void
    /// Wraps the whole measurement (the process-wide scope); `nil`: nothing to wrap.
    var aroundThreads: (@Sendable (() -> Void) -> Void)? = nil
    var aroundTasks: (@Sendable (() async -> Void) async -> Void)? = nil
}

let date = Date(timeIntervalSince1970: 1_000_000)

let mechanisms: [Mechanism] = [
    Mechanism(name: "Ambient, own scope", reads: 2_000_000) { index, count in
        withInjected(Stamp(id: index)) {
            for _ in 0..<count { consume(Stamp.current) }
        }
    },
    Mechanism(
        name: "Ambient, process-wide scope",
        reads: 1_000_000,
        readLoop: { _, count in
            for _ in 0..<count { consume(Stamp.current) }
        },
        aroundThreads: { body in withInjectedProcessWide(Stamp(id: -1)) { body() } },
        aroundTasks: { body in await withInjectedProcessWide(Stamp(id: -1)) { () async in await body() } }
    ),
    Mechanism(name: "raw @TaskLocal", reads: 2_000_000) { index, count in
        Raw.$stamp.withValue(Stamp(id: index)) {
            for _ in 0..<count { consume(Raw.stamp) }
        }
    },
    Mechanism(name: "ServiceContext.current", reads: 250_000) { index, count in
        var context = ServiceContext.topLevel
        context[StampKey.self] = Stamp(id: index)
        ServiceContext.withValue(context) {
            for _ in 0..<count { consume(ServiceContext.current?[StampKey.self]) }
        }
    },
    Mechanism(name: "swift-dependencies @Dependency(\\.date)", reads: 25_000) { _, count in
        withDependencies {
            $0.date = .constant(date)
        } operation: {
            for _ in 0..<count {
                @Dependency(\.date) var current
                consume(current.now)
            }
        }
    },
    Mechanism(name: "lock-guarded global (swizzle)", reads: 100_000) { _, count in
        for _ in 0..<count { consume(swizzled.withLock { $0 }) }
    },
]

func elapsed(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start)
}

/// Wall time for `readers` plain threads sharing `total` reads.
func onThreads(_ mechanism: Mechanism, readers: Int, total: Int) -> Double {
    let run = {
        let group = DispatchGroup()
        for index in 0..<readers {
            group.enter()
            Thread {
                mechanism.readLoop(index, total / readers)
                group.leave()
            }.start()
        }
        group.wait()
    }
    return elapsed {
        if let around = mechanism.aroundThreads { around(run) } else { run() }
    }
}

/// Wall time for `readers` child tasks sharing `total` reads.
func onTasks(_ mechanism: Mechanism, readers: Int, total: Int) -> Double {
    let done = DispatchSemaphore(value: 0)
    let start = DispatchTime.now().uptimeNanoseconds
    let end = Mutex<UInt64>(0)
    Task.detached {
        let run: @Sendable () async -> Void = {
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<readers {
                    group.addTask { mechanism.readLoop(index, total / readers) }
                }
            }
        }
        if let around = mechanism.aroundTasks { await around(run) } else { await run() }
        end.withLock { $0 = DispatchTime.now().uptimeNanoseconds }
        done.signal()
    }
    done.wait()
    return Double(end.withLock { $0 } - start)
}

let quick = CommandLine.arguments.contains("--quick")
let counts = [1, 2, 4, 8, 16]
let samples = quick ? 1 : 3
let cores = ProcessInfo.processInfo.activeProcessorCount

for (mode, measure) in [
    ("threads", onThreads), ("tasks", onTasks),
] as [(String, (Mechanism, Int, Int) -> Double)] {
    print("ns per read (wall time ÷ reads), \(mode); in brackets: throughput against 1 reader\n")
    print("| \(mode) | " + counts.map { "\($0)" }.joined(separator: " | ") + " |")
    print("|---|" + counts.map { _ in "---:" }.joined(separator: "|") + "|")
    for mechanism in mechanisms {
        let total = quick ? mechanism.reads / 10 : mechanism.reads
        var single = 0.0
        var cells: [String] = []
        for readers in counts {
            let times = (0..<samples).map { _ in measure(mechanism, readers, total) / Double(total) }.sorted()
            let median = times[times.count / 2]
            if readers == 1 { single = median }
            let cell = String(format: "%.1f", median)
            cells.append(readers == 1 ? cell : cell + String(format: " (%.2f×)", single / median))
        }
        print("| \(mechanism.name) | " + cells.joined(separator: " | ") + " |")
    }
    print("")
}
let volume = quick ? "--quick: a tenth of the reads" : "reads per measurement: 25,000 to 2,000,000 by mechanism"
print("\(cores) cores; median of \(samples); \(volume).")
