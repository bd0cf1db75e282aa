// SPDX-License-Identifier: Apache-2.0

// ambient-demo: legacy code (Legacy.swift) run twice — live, and inside withInjected with
// fakes — printing what each run saw side by side, then a short overhead table.
//
//   swift run -c release ambient-demo [--live-only | --injected-only] [--no-bench]
import Ambient
import Foundation

// Why: the README's first command shows what Ambient does, live beside injected.

let arguments = Set(CommandLine.arguments.dropFirst())
let known: Set<String> = ["--help", "-h", "--live-only", "--injected-only", "--no-bench"]
if !arguments.isSubset(of: known) || arguments.contains("--help") || arguments.contains("-h") {
    let unknown = arguments.subtracting(known)
    if !unknown.isEmpty { print("ambient-demo: unknown option \(unknown.sorted().joined(separator: ", "))\n") }
    print(
        """
        usage: ambient-demo [--live-only | --injected-only] [--no-bench]

        Runs a small legacy program (a widget maker, reminder ids, a reminder scheduler,
        a note search on its own queue, logging) twice: live (a throwaway UserDefaults
        suite, removed at exit; the system clock; stderr) and inside withInjected
        (in-memory defaults, a TestClock it advances, a capturing logger), and prints
        what each run saw.

          --live-only       only the live run
          --injected-only   only the injected run (checked: exit 1 if it saw anything unexpected)
          --no-bench        skip the overhead table
        """)
    exit(unknown.isEmpty ? 0 : 64)
}

let runLiveRun = !arguments.contains("--injected-only")
let runInjectedRun = !arguments.contains("--live-only")

func show(_ date: Date) -> String { date.formatted(.iso8601) }

var live: Observations?
var injected: Observations?
var entries: [Logger.Entry] = []
var problems: [String] = []

do {
    if runLiveRun { live = try await runLive() }
    if runInjectedRun { (injected, entries) = try await runInjected() }
} catch {
    print("ambient-demo: the run failed: \(error)")
    exit(1)
}

if let injected {
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    let expected = Observations(
        widget: "RedWidget", reminderIds: [1, 2], reminderDue: start.addingTimeInterval(3_600),
        reminderFired: start.addingTimeInterval(3_600), search: ["buy milk", "milk the cow"])
    if injected != expected { problems.append("injected run saw \(injected), expected \(expected)") }
    if entries.count != 6 { problems.append("captured \(entries.count) log entries, expected 6") }
}

let rows: [(String, (Observations) -> String)] = [
    ("makeWidget()", { $0.widget }),
    ("nextReminderId() twice", { $0.reminderIds.map(String.init).joined(separator: ", ") }),
    ("reminder due", { show($0.reminderDue) }),
    ("reminder fired", { show($0.reminderFired) }),
    ("NoteManager.search(\"milk\")", { $0.search.joined(separator: ", ") }),
]
print("| what the legacy code saw | live | injected |")
print("|---|---|---|")
for (label, value) in rows {
    print("| \(label) | \(live.map(value) ?? "—") | \(injected.map(value) ?? "—") |")
}
if runInjectedRun {
    print("\nLogged in the injected run (captured, timestamps from the TestClock):")
    for entry in entries { print("  \(entry)") }
}

if !arguments.contains("--no-bench") {
    print("\nOverhead, in process (median of 5 rounds; the full suite is Benchmarks/run):\n")
    #if DEBUG
    print("(a debug build: numbers mean little; use `swift run -c release ambient-demo`)\n")
    #endif
    print(Overhead.table())
}

if problems.isEmpty {
    print("\nambient-demo: OK")
} else {
    for problem in problems { print("ambient-demo: FAIL \(problem)") }
    exit(1)
}
