// SPDX-License-Identifier: Apache-2.0

// A program that links AmbientTesting but runs no test (ReportOutsideATestTests starts it):
// AmbientTesting's load-time set-up runs, then reports through Ambient's default
// `IssueReporter` — directly, and from a TestClock running out of steps — must go to
// standard error and let the program carry on.
import Ambient
import AmbientTesting
import Foundation

IssueReporter.current.report(
    "reported outside a test",
    at: IssueReporter.Location(fileID: "ReportOutsideATest/main.swift", filePath: #filePath, line: 1, column: 1))

let testClock = TestClock()
let forever = Task.detached {
    try await withInjected(testClock.clock) {
        while true { try await Clock.current.sleep(for: .seconds(1)) }
    }
}
try await testClock.waitForSleepers()
await testClock.run(maximumSteps: 2)
forever.cancel()
print("carried on")
