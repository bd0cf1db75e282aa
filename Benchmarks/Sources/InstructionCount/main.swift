// SPDX-License-Identifier: Apache-2.0

// One case, run N times, for callgrind to count: `InstructionCount CASE N`. The
// `instructions` script runs each case at two values of N under callgrind and divides the
// difference, so start-up and one-time costs (the first binding's self-check, lazy globals)
// cancel out and what is left is the cost of one operation, in instructions.
//
// No case is written here: closures in main.swift's top-level code are main-actor isolated,
// and a main-actor closure called from a nonisolated function (`TaskLocal.withValue`'s body,
// say) pays the runtime's main-actor check on every call — about 320 instructions that
// library code never pays, which made the raw floor read 802 instead of 480. The cases live
// in files of their own (Cases.swift and the others), nonisolated as a library's code is;
// Floors/ counts the floors alone to keep it so (`instructions --check`).
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
guard arguments.count == 3, let count = Int(arguments[2]) else {
    print("usage: InstructionCount CASE COUNT | --list")
    exit(2)
}
if let body = syncCases[arguments[1]] {
    body(count)
} else if let body = allAsyncCases[arguments[1]] {
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        await body(count)
        done.signal()
    }
    done.wait()
} else {
    print("unknown case \(arguments[1]); --list lists them")
    exit(2)
}
