// SPDX-License-Identifier: Apache-2.0

// Why: the floors the instruction budgets divide by, written as users write them — a
// `@TaskLocal static var` bound with `$stamp.withValue`, a global `let` — in a program that
// holds nothing else. `Floors CASE N` runs one case N times, and `Floors CASE N1 N2 …`
// N1 times, then N2 times after a mark and so on, as `InstructionCount` does; `Floors --list`
// lists them. The case names are InstructionCount's. The cases are in
// Cases.swift, not here: closures written in main.swift's top-level code are main-actor
// isolated, and each call of one from a nonisolated function (`withValue`'s body) adds the
// runtime's check that it runs on the main actor to every operation.

let arguments = CommandLine.arguments
let counts = arguments.dropFirst(2).compactMap { Int($0) }
let counted = arguments.count >= 3 && counts.count == arguments.count - 2
if arguments.count == 2, arguments[1] == "--list" {
    for name in (Array(syncCases.keys) + Array(asyncCases.keys)).sorted() { print(name) }
} else if counted, let body = syncCases[arguments[1]] {
    runCounted(counts, body)
} else if counted, let body = asyncCases[arguments[1]] {
    runCountedInATask(counts, body)
} else {
    print("usage: Floors CASE COUNT... | --list")
}
