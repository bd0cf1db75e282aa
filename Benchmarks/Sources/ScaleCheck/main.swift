// Read throughput with N concurrent readers, each inside its own scope or, for the
// process-wide rows, on a thread nobody wrapped while a process-wide scope is active,
// measured outside
// package-benchmark (whose instrumentation serialises threads: under it, two threads run
// no faster than one). `run` prints this table after the main one.
//
//   swift run -c release ScaleCheck [total reads, default 20,000,000]
import Ambient
import Dispatch
import Foundation

final class Source: Sendable {
    let id: Int
    init(id: Int) { self.id = id }
}

struct Reading: AmbientValue {
    let source: Source
    static let live = Reading(source: Source(id: 0))
    static var defaultValue: Reading { live }
}

@inline(never)
func consume(_ value: Reading) {
    withExtendedLifetime(value) {}
}

func readLoop(_ index: Int, _ count: Int) {
    withInjected(Reading(source: Source(id: index))) {
        for _ in 0..<count { consume(Reading.current) }
    }
}

/// A trivially copyable value: reading it touches no reference count, so one value shared
/// by every reader (as a process-wide scope's is) measures the mechanism, not contention
/// on the value's own reference count.
struct Tally: AmbientValue {
    let id: Int
    static var defaultValue: Tally { Tally(id: 0) }
}

@inline(never)
func consume(_ value: Tally) {
    withExtendedLifetime(value) {}
}

/// In-scope reads of the trivial value, for the process-wide rows to compare with.
func trivialReadLoop(_ index: Int, _ count: Int) {
    withInjected(Tally(id: index)) {
        for _ in 0..<count { consume(Tally.current) }
    }
}

/// Reads with no binding of its own: answered by the active process-wide scope.
func unwrappedReadLoop(_ index: Int, _ count: Int) {
    for _ in 0..<count { consume(Tally.current) }
}

func timed(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start)
}

func threads(_ count: Int, total: Int, loop: @escaping @Sendable (Int, Int) -> Void = readLoop) -> Double {
    timed {
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread {
                loop(index, total / count)
                group.leave()
            }.start()
        }
        group.wait()
    }
}

func tasks(_ count: Int, total: Int) -> Double {
    timed {
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<count {
                    group.addTask { readLoop(index, total / count) }
                }
            }
            done.signal()
        }
        done.wait()
    }
}

func processWideThreads(_ count: Int, total: Int) -> Double {
    withInjectedProcessWide(Tally(id: -1)) {
        threads(count, total: total, loop: unwrappedReadLoop)
    }
}

let total = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 20_000_000
let cores = ProcessInfo.processInfo.activeProcessorCount
let counts = [1, 2, 4, 8, 16]
print("| readers | ns/read, median of 5 | speed-up vs 1 reader |")
print("|---|---:|---:|")
for (label, measure, counts) in [
    ("threads, each in its own scope", { threads($0, total: $1) }, counts),
    ("threads, each in its own scope, trivial value", { threads($0, total: $1, loop: trivialReadLoop) }, counts),
    ("threads, unwrapped, process-wide scope, trivial value", processWideThreads, counts),
    ("tasks, each in its own scope", tasks, counts + [1_000]),
] as [(String, (Int, Int) -> Double, [Int])] {
    var single = 0.0
    for count in counts {
        let samples = (0..<5).map { _ in measure(count, total) / Double(total) }.sorted()
        let median = samples[2]
        if count == 1 { single = median }
        print("| \(count) \(label) | \(String(format: "%.1f", median)) | \(String(format: "%.2f", single / median))× |")
    }
}
print("\n\(cores) cores; \(total) reads per measurement.")
