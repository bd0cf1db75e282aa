import Foundation

/// Where Ambient's test tools report a failure that is nobody's error to catch: a
/// ``TestClock`` whose woken work never settles, or whose ``TestClock/run(maximumSteps:fileID:filePath:line:column:)``
/// runs out of steps. They report and carry on; they never trap or hang the test process.
///
/// AmbientTesting's `.injecting(…)` and `.strict()` traits and `InjectingTestCase` inject
/// one that records a test failure (a Swift Testing issue, or `XCTFail`) at the test's
/// call site. Without them, reports go to standard error. Inject your own to send them
/// elsewhere:
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

    /// A reporter that hands each failure to `report`.
    public init(_ report: @escaping @Sendable (_ message: String, _ location: Location) -> Void) {
        self.sink = report
    }

    /// Reports `message` as a failure at `location`.
    public func report(_ message: String, at location: Location) {
        sink(message, location)
    }

    /// Writes each report to standard error, prefixed with its location.
    public static let standardError = IssueReporter { message, location in
        FileHandle.standardError.write(Data("\(location): error: \(message)\n".utf8))
    }

    /// ``standardError``: what reports go to when no test framework's reporter is injected.
    public static var defaultValue: IssueReporter {
        standardError
    }

    /// `true`: reading the default reporter under strict mode is not a live read worth
    /// reporting (it is how strict mode's own neighbours report).
    public static var allowsLiveReadsUnderStrictMode: Bool {
        true
    }
}
