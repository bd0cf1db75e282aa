// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientTestClock
import Foundation
import XCTest

/// A plain XCTest test case — no `InjectingTestCase`, no trait — in a test program that
/// links AmbientTesting: a report from Ambient's tools fails the running test method. The
/// failures are caught here (instead of failing this suite) to check what was recorded.
final class PlainXCTestReportTests: XCTestCase {
    private let recorded = ReportLog()

    #if canImport(ObjectiveC)
    override func record(_ issue: XCTIssue) {
        recorded.append("\(issue.sourceCodeContext.location?.lineNumber ?? 0): \(issue.compactDescription)")
    }
    #else
    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        recorded.append("\(lineNumber): \(description)")
    }
    #endif

    func testAReportFailsTheRunningTestMethod() {
        IssueReporter.current.report(
            "boom", at: IssueReporter.Location(fileID: #fileID, filePath: #filePath, line: 42, column: 1))
        XCTAssertEqual(recorded.messages.count, 1)
        XCTAssertTrue(recorded.messages.first?.hasPrefix("42: ") == true, "\(recorded.messages)")
        XCTAssertTrue(recorded.messages.first?.hasSuffix("boom") == true, "\(recorded.messages)")
    }

    func testATestClockRunningOutOfStepsFailsTheRunningTestMethod() throws {
        let testClock = TestClock()
        let done = expectation(description: "run returned")
        let forever = Task {
            try await withInjected(testClock.clock) {
                while true { try await Clock.current.sleep(for: .seconds(1)) }
            }
        }
        Task {
            try await testClock.waitForSleepers()
            await testClock.run(maximumSteps: 3)
            done.fulfill()
        }
        wait(for: [done], timeout: 30)
        forever.cancel()
        XCTAssertEqual(recorded.messages.count, 1, "\(recorded.messages)")
        XCTAssertTrue(
            recorded.messages.first?.contains("sleepers still pending after 3 deadlines") == true,
            "\(recorded.messages)")
    }

    /// XCTest follows the running test method from any thread: a request the stub did not
    /// expect, made from a dispatch queue, still fails it (at the stub's line).
    func testAnUnexpectedRequestFromAQueueFailsTheRunningTestMethod() {
        let stubLine = #line + 1
        let stub = NetworkSession.stub([.get("https://api.example.com/hello", body: "hi")])
        let answered = expectation(description: "answered")
        withInjected(stub) {
            DispatchQueue.global().async(
                execute: InjectionContext.current.bind {
                    NetworkSession.current.dataTask(with: URL(string: "https://api.example.com/queue")!) {
                        _, _, error in
                        XCTAssertTrue(error is NetworkSession.UnexpectedRequest)
                        answered.fulfill()
                    }.resume()
                })
        }
        wait(for: [answered], timeout: 10)
        XCTAssertEqual(recorded.messages.count, 1, "\(recorded.messages)")
        XCTAssertTrue(recorded.messages.first?.hasPrefix("\(stubLine): ") == true, "\(recorded.messages)")
        XCTAssertTrue(
            recorded.messages.first?.contains("unexpected request GET https://api.example.com/queue") == true,
            "\(recorded.messages)")
    }
}
