// SPDX-License-Identifier: Apache-2.0

// The running test, as far as Ambient can reach it without linking a test framework:
// through AmbientTesting's entry point, when the program links AmbientTesting.
import _AmbientShims

// Why: a report fails the running test without Ambient linking a test framework.

/// Records reports as failures of the running test through AmbientTesting
/// (`ambient_testing_record_issue`), found in the program when it links AmbientTesting.
package enum RunningTest {
    /// Whether AmbientTesting is linked into this program.
    package static var isReachable: Bool {
        _ambient_testing_record_issue_hook() != nil
    }

    /// Records `message` at `location` as a failure of the running test (Swift Testing or
    /// XCTest); `false` when no test is running or AmbientTesting is not linked.
    package static func recordFailure(
        _ message: String, fileID: String, filePath: String, line: Int, column: Int
    ) -> Bool {
        guard let record = _ambient_testing_record_issue_hook() else { return false }
        return record(message, fileID, filePath, line, column)
    }
}
