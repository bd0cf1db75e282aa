// SPDX-License-Identifier: Apache-2.0

// Why: `AB CASE N` runs one case's loop of N operations five times and prints the
// nanoseconds per operation of the fastest (the loop alone, timed inside the process);
// `AB --list` lists the cases. `../ab` runs
// this head's build and the previous head's in turn. The cases are in Cases.swift, not here:
// closures written in main.swift's top-level code are main-actor isolated, which adds a check
// to every call from a nonisolated function (`withValue`'s body).
import Dispatch

let arguments = CommandLine.arguments
if arguments.count == 2, arguments[1] == "--list" {
    for name in (Array(syncCases.keys) + Array(asyncCases.keys)).sorted() { print(name) }
} else if arguments.count == 3, let count = Int(arguments[2]), count > 0,
    syncCases[arguments[1]] != nil || asyncCases[arguments[1]] != nil
{
    // The fastest of five runs of the loop: interference (another process, a migration)
    // only ever adds time, so the minimum is the figure least moved by it.
    var fastest = Double.infinity
    for _ in 0..<5 {
        let elapsed: Duration
        if let body = syncCases[arguments[1]] {
            elapsed = ContinuousClock().measure { body(count) }
        } else {
            let body = asyncCases[arguments[1]]!
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var measured = Duration.zero
            Task.detached {
                measured = await ContinuousClock().measure { await body(count) }
                done.signal()
            }
            done.wait()
            elapsed = measured
        }
        let nanoseconds = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
        fastest = min(fastest, nanoseconds / Double(count))
    }
    print(fastest)
} else {
    print("usage: AB CASE COUNT | --list")
}
