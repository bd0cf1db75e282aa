// SPDX-License-Identifier: Apache-2.0

// Why: one callgrind process counts a case. `CASE 1000 1000 11000` runs the case 1,000
// times, then 1,000 and 11,000 times, each run after a call of this mark and the last
// followed by one; callgrind run with `--dump-before=instruction_count_mark` writes one file
// per part, and the difference of the third (`.3`) and the second (`.2`) is 10,000
// operations: start-up, one-time work and each run's own set-up cancel out. Floors and
// InstructionCount both compile this file (InstructionCount's copy is a link to it).
import Dispatch

/// What the mark writes, so that the optimizer keeps its calls.
nonisolated(unsafe) var countingMarks = 0

/// Where callgrind cuts its count (`--dump-before=instruction_count_mark`).
@_silgen_name("instruction_count_mark") @inline(never)
func countingMark() { countingMarks &+= 1 }

/// Runs `body` once per count, in order: every run after the first between two marks (one
/// count alone: a plain run, unmarked).
func runCounted(_ counts: [Int], _ body: (Int) -> Void) {
    body(counts[0])
    for count in counts.dropFirst() {
        countingMark()
        body(count)
    }
    if counts.count > 1 { countingMark() }
}

/// `runCounted(_:_:)` for an async case, from top-level code: in a detached task (outside
/// the main actor, as a library's code runs), waiting until it is done.
func runCountedInATask(_ counts: [Int], _ body: @escaping @Sendable (Int) async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        await body(counts[0])
        for count in counts.dropFirst() {
            countingMark()
            await body(count)
        }
        if counts.count > 1 { countingMark() }
        done.signal()
    }
    done.wait()
}
