// SPDX-License-Identifier: Apache-2.0

// Why: one callgrind process counts a case. `CASE 1000 1000 11000` runs the case 1,000
// times, then 1,000 and 11,000 times, each run after a call of this mark and the last
// followed by one; callgrind run with `--dump-before=instruction_count_mark` writes one file
// per part, and the difference of the third (`.3`) and the second (`.2`) is 10,000
// operations: start-up, one-time work and each run's own set-up cancel out.

/// What the mark writes, so that the optimizer keeps its calls.
nonisolated(unsafe) var countingMarks = 0

/// Where callgrind cuts its count (`--dump-before=instruction_count_mark`).
@_silgen_name("instruction_count_mark") @inline(never)
func countingMark() { countingMarks &+= 1 }
