// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientTesting
import Foundation
import Testing

/// Under the traits, a TestClock's failures become issues of the test that met them.
@Suite("TestClock failures are test issues")
struct TestClockIssueTests {
    @Test(.injecting(Clock.fixed(noon)))
    func runOutOfStepsIsRecordedUnderInjecting() async throws {
        try await expectStepLimitIssue()
    }

    @Test(.strict(allowing: [Clock.self]))
    func runOutOfStepsIsRecordedUnderStrict() async throws {
        try await expectStepLimitIssue()
    }

    /// No trait: the default reporter finds AmbientTesting, linked into this test program.
    @Test func runOutOfStepsIsRecordedInAPlainTest() async throws {
        try await expectStepLimitIssue()
    }

    @Test func anyReportFailsAPlainTestAtItsLocation() {
        withKnownIssue {
            IssueReporter.current.report(
                "boom", at: IssueReporter.Location(fileID: #fileID, filePath: #filePath, line: 7, column: 3))
        } matching: { issue in
            issue.comments.contains { $0.rawValue == "boom" } && issue.sourceLocation?.line == 7
                && issue.sourceLocation?.column == 3
        }
    }

    /// A child task is the test's: the report names it. (A detached task or a queue is no
    /// test's — Swift Testing runs tests in parallel — and its report goes to standard error.)
    @Test func aReportFromAChildTaskOfTheTestFailsIt() async {
        await withKnownIssue {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    IssueReporter.current.report(
                        "from a child task",
                        at: IssueReporter.Location(fileID: #fileID, filePath: #filePath, line: #line, column: #column))
                }
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue == "from a child task" }
        }
    }

    @Test(.injecting(Clock.fixed(noon)))
    func aReporterTheTestInjectsWins() async throws {
        let reports = ReportLog()
        let testClock = TestClock()
        let forever = Task {
            try await withInjected(testClock.clock) {
                while true { try await Clock.current.sleep(for: .seconds(1)) }
            }
        }
        try await testClock.waitForSleepers()
        await withInjected(IssueReporter { message, _ in reports.append(message) }) {
            await testClock.run(maximumSteps: 2)
        }
        #expect(reports.messages.count == 1)
        forever.cancel()
        _ = try? await forever.value
    }

    /// A task that sleeps forever; `run(maximumSteps: 3)` must record exactly one issue that
    /// names the pending sleeper, then return.
    func expectStepLimitIssue() async throws {
        let testClock = TestClock()
        let forever = Task {
            try await withInjected(testClock.clock) {
                while true { try await Clock.current.sleep(for: .seconds(1)) }
            }
        }
        try await testClock.waitForSleepers()
        await withKnownIssue {
            await testClock.run(maximumSteps: 3)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("sleepers still pending after 3 deadlines") }
                && issue.sourceLocation?.fileID.hasSuffix("TestClockIssueTests.swift") == true
        }
        forever.cancel()
        _ = try? await forever.value
    }
}

/// Messages collected from another task.
final class ReportLog: @unchecked Sendable {
    // @unchecked: `stored` is only touched with `lock` held.
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ message: String) { lock.withLock { stored.append(message) } }
    var messages: [String] { lock.withLock { stored } }
}
