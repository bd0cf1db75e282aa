// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: test tools report failures nobody can catch (a stuck clock, an unexpected request) without trapping.

/// Where Ambient's test tools report a failure that is nobody's error to catch: a
/// `TestClock` whose woken work never settles, or whose `TestClock.run(maximumSteps:)`
/// runs out of steps. They report and carry on; they never trap or hang the test process.
///
/// By default (``automatic``) a report fails the running test — a Swift Testing issue, or
/// a failure of the running XCTest test case — at the test's call site, in any test
/// target that links AmbientTesting, with or without its traits; outside a test, or in a
/// program without AmbientTesting, it goes to standard error. Inject your own to send
/// reports elsewhere:
///
/// ```swift
/// let reporter = IssueReporter { message, location in
///     fatalError("\(location.fileID):\(location.line): \(message)")
/// }
/// await withInjected(reporter) { await testClock.run() }
/// ```
public struct IssueReporter: AmbientValue {
    /// The source location a report points at: the test's call into the tool.
    public struct Location: Sendable, Equatable, CustomStringConvertible {
        /// `#fileID` of the call.
        public let fileID: String
        /// `#filePath` of the call.
        public let filePath: String
        /// `#line` of the call.
        public let line: Int
        /// `#column` of the call.
        public let column: Int

        /// A location, usually from a caller's `#fileID`, `#filePath`, `#line` and `#column`.
        public init(fileID: String, filePath: String, line: Int, column: Int) {
            self.fileID = fileID
            self.filePath = filePath
            self.line = line
            self.column = column
        }

        /// `Module/File.swift:12:5`.
        public var description: String {
            "\(fileID):\(line):\(column)"
        }
    }

    private let sink: @Sendable (_ message: String, _ location: Location) -> Void
    /// The test's check for work left pending, when a test framework's integration made this
    /// reporter for one test: background queues made where it is current register there.
    package let pendingWork: (any PendingWorkWatch)?

    /// A reporter that hands each failure to `report`.
    public init(_ report: @escaping @Sendable (_ message: String, _ location: Location) -> Void) {
        self.sink = report
        self.pendingWork = nil
    }

    /// A reporter for one test whose background queues `pendingWork` watches.
    package init(
        checkingPendingWork pendingWork: any PendingWorkWatch,
        _ report: @escaping @Sendable (_ message: String, _ location: Location) -> Void
    ) {
        self.sink = report
        self.pendingWork = pendingWork
    }

    /// Reports `message` as a failure at `location`.
    public func report(_ message: String, at location: Location) {
        sink(message, location)
    }

    /// Writes each report to standard error, prefixed with its location.
    public static let standardError = IssueReporter { message, location in
        FileHandle.standardError.write(Data("\(location): error: \(message)\n".utf8))
    }

    /// Fails the running test with each report when the program links AmbientTesting (a
    /// test target that depends on it: Swift Testing or XCTest, no trait needed); writes it
    /// to standard error otherwise, with a hint when the program looks like a test run
    /// without AmbientTesting. Ambient itself links no test framework: it finds
    /// AmbientTesting's entry point when the program has one.
    public static let automatic = IssueReporter { message, location in
        if RunningTest.recordFailure(
            message, fileID: location.fileID, filePath: location.filePath, line: location.line, column: location.column
        ) {
            return
        }
        standardError.report(
            !RunningTest.isReachable && looksLikeATestRun
                ? message + " (this did not fail the test: link AmbientTesting into the test target)" : message,
            at: location)
    }

    /// Whether this process was started by a test runner (XCTest, or Swift Testing through
    /// SwiftPM), as far as its arguments and environment say.
    private static let looksLikeATestRun: Bool = {
        let environment = ProcessInfo.processInfo.environment
        if environment["XCTestConfigurationFilePath"] != nil || environment["XCTestBundlePath"] != nil {
            return true
        }
        return ProcessInfo.processInfo.arguments.contains { argument in
            argument == "--testing-library" || argument.hasSuffix(".xctest") || argument.hasSuffix("/xctest")
                || argument.hasSuffix("swiftpm-testing-helper")
        }
    }()

    /// ``automatic``: a report fails the running test where AmbientTesting is linked, and
    /// goes to standard error elsewhere.
    public static var defaultValue: IssueReporter {
        automatic
    }

    /// `true`: reading the default reporter under strict mode is not a live read worth
    /// reporting (it is how strict mode's own neighbours report).
    public static var allowsLiveReadsUnderStrictMode: Bool {
        true
    }
}
