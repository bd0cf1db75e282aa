// SPDX-License-Identifier: Apache-2.0

// One case for callgrind to count (or each case named on standard input, with `--each`, in
// a process of its own): `InstructionCount CASE N` runs it N times;
// `InstructionCount CASE N1 N2 N3 …` runs it N1 times, then N2 times, N3 times and so on,
// each run after a call of `countingMark()` and the last followed by one
// (CountingMark.swift). The `instructions` script runs it 1,000 times to warm up, then 1,000
// and 11,000 times, and divides the difference of the last two parts by 10,000: start-up,
// one-time work (the first binding's self-check, lazy globals) and each run's own set-up (a
// breadth case's 64 injected values) cancel out, and what is left is the cost of one
// operation, in instructions.
//
// No case is written here: closures in main.swift's top-level code are main-actor isolated,
// and a main-actor closure called from a nonisolated function (`TaskLocal.withValue`'s body,
// say) pays the runtime's main-actor check on every call — about 320 instructions that
// library code never pays, which made the raw floor read 802 instead of 480. The cases live
// in files of their own (Cases.swift and the others), nonisolated as a library's code is;
// Floors (AB/) counts the floors alone to keep it so (`instructions --check`).
import Foundation

let syncCases = cases.mapValues { $0 as (Int) -> Void }
    .merging(carryingCases.mapValues { $0 as (Int) -> Void }) { first, _ in first }
    .merging(breadthCases()) { first, _ in first }
    .merging(swiftLogChannelCases.mapValues { $0 as (Int) -> Void }) { first, _ in first }
    .merging(allocationCases.mapValues { $0 as (Int) -> Void }) { first, _ in first }
    .merging(portCases.mapValues { $0 as (Int) -> Void }) { first, _ in first }
    .merging(prototypeCases.mapValues { $0 as (Int) -> Void }) { first, _ in first }
let allAsyncCases = asyncCases.merging(asyncAllocationCases) { first, _ in first }
let arguments = CommandLine.arguments
if arguments.count == 2, arguments[1] == "--list" {
    for name in (Array(syncCases.keys) + Array(allAsyncCases.keys)).sorted() { print(name) }
    exit(0)
}
let counts = arguments.dropFirst(2).compactMap { Int($0) }
guard arguments.count >= 3, counts.count == arguments.count - 2 else {
    print("usage: InstructionCount CASE COUNT... | --each COUNT... (cases on standard input) | --list")
    exit(2)
}
/// Runs the case `name` as `runCounted(_:_:)` does; false when there is no such case.
@MainActor func run(_ name: String, _ counts: [Int]) -> Bool {
    if let body = syncCases[name] {
        runCounted(counts, body)
    } else if let body = allAsyncCases[name] {
        runCountedInATask(counts, body)
    } else {
        return false
    }
    return true
}
if arguments[1] == "--each" {
    // Each case named on standard input, one per line, in a process of its own: forked from
    // this one once every name is read, so each starts from the state a fresh process has
    // when its case begins (nothing of another case's run in it), without valgrind's start-up
    // for each (under callgrind, `--callgrind-out-file=…%p` gives each child its own files).
    // Prints `PID NAME` for each.
    var names: [String] = []
    while let line = readLine() { names.append(line) }
    for name in names {
        fflush(nil)
        let child = fork()
        if child == 0 { exit(run(name, counts) ? 0 : 3) }
        var status: Int32 = 0
        guard child > 0, waitpid(child, &status, 0) == child, status == 0 else {
            print("case \(name) failed (status \(status)); --list lists them")
            exit(1)
        }
        print("\(child) \(name)")
    }
} else if !run(arguments[1], counts) {
    print("unknown case \(arguments[1]); --list lists them")
    exit(2)
}
