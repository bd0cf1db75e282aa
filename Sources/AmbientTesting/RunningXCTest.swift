// SPDX-License-Identifier: Apache-2.0

// Which test is running, for Ambient's default `IssueReporter` (`IssueReporter.automatic`):
// the entry point it finds when a test program links AmbientTesting, and the XCTest observer
// that entry point consults. Swift Testing says which test runs itself (`Test.current`).
import Ambient
import Foundation
import Testing
import XCTest

// Why: a report must fail the XCTest case that is running, which only AmbientTesting can see.

/// Follows which XCTest test case is running, from XCTest's own observation: added when a
/// program that links AmbientTesting loads (`_AmbientTestingShims`), before any test runs.
final class RunningXCTest: NSObject, XCTestObservation, @unchecked Sendable {
    // @unchecked: `running` is only touched under its lock; the test case it holds is used
    // only to record a failure on it, which XCTest allows from any thread (as `XCTFail`).
    static let shared = RunningXCTest()

    private struct Running: @unchecked Sendable {
        let testCase: XCTestCase
    }

    private let running = Locked<Running?>(nil)

    /// The test case XCTest is running now, if any.
    var current: XCTestCase? {
        running.get()?.testCase
    }

    func testCaseWillStart(_ testCase: XCTestCase) {
        running.withLock { $0 = Running(testCase: testCase) }
    }

    func testCaseDidFinish(_ testCase: XCTestCase) {
        running.withLock { $0 = nil }
    }
}

/// Called by `_AmbientTestingShims` when the program loads.
@_cdecl("ambient_testing_follow_xctest")
func followXCTest() {
    XCTestObservationCenter.shared.addTestObserver(RunningXCTest.shared)
}

/// Records a report from Ambient's tools as a failure of the running test: a Swift Testing
/// issue, or a failure of the running XCTest test case, at the reported location. Returns
/// `false`, recording nothing, when no test is running (the caller writes to standard
/// error). Found by `IssueReporter.automatic` through `_AmbientShims`.
@_cdecl("ambient_testing_record_issue")
func recordIssue(
    _ message: UnsafePointer<CChar>, _ fileID: UnsafePointer<CChar>, _ filePath: UnsafePointer<CChar>, _ line: Int,
    _ column: Int
) -> Bool {
    let location = IssueReporter.Location(
        fileID: String(cString: fileID), filePath: String(cString: filePath), line: line, column: column)
    let message = String(cString: message)
    if Test.current != nil {
        IssueReporter.swiftTesting.report(message, at: location)
        return true
    }
    if let testCase = RunningXCTest.shared.current {
        #if canImport(ObjectiveC)
        testCase.record(
            XCTIssue(
                type: .assertionFailure, compactDescription: message,
                sourceCodeContext: XCTSourceCodeContext(
                    location: XCTSourceCodeLocation(filePath: location.filePath, lineNumber: location.line))))
        #else
        testCase.recordFailure(
            withDescription: "\(location): \(message)", inFile: location.filePath, atLine: location.line,
            expected: true)
        #endif
        return true
    }
    return false
}
