// SPDX-License-Identifier: Apache-2.0

// A program that does not link AmbientTesting (ReportOutsideATestTests starts it): a report
// through Ambient's default `IssueReporter` goes to standard error; started as a test runner
// would be (`--testing-library`), it also says the report failed no test and why.
import Ambient

IssueReporter.current.report(
    "reported without AmbientTesting",
    at: IssueReporter.Location(
        fileID: "ReportWithoutAmbientTesting/main.swift", filePath: #filePath, line: 1, column: 1))
print("carried on")
