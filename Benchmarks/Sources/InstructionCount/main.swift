// SPDX-License-Identifier: Apache-2.0

// One case for callgrind to count: `InstructionCount CASE N` runs it N times;
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
let allAsyncCases = asyncCases.merging(asyncAllocationCases) { first, _ in first }
let arguments = CommandLine.arguments
if arguments.count == 2, arguments[1] == "--list" {
    for name in (Array(syncCases.keys) + Array(allAsyncCases.keys)).sorted() { print(name) }
    exit(0)
}
let counts = arguments.dropFirst(2).compactMap { Int($0) }
guard arguments.count >= 3, counts.count == arguments.count - 2 else {
    print("usage: InstructionCount CASE COUNT... | --list")
    exit(2)
}
if let body = syncCases[arguments[1]] {
    runCounted(counts, body)
} else if let body = allAsyncCases[arguments[1]] {
    runCountedInATask(counts, body)
} else {
    print("unknown case \(arguments[1]); --list lists them")
    exit(2)
}
