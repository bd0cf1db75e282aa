// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

/// Reports made where no test runs: in a program that links AmbientTesting (its load-time
/// set-up included) and in one that does not. Both write to standard error and carry on.
@Suite("Reports outside a test")
struct ReportOutsideATestTests {
    @Test func aProgramLinkingAmbientTestingWritesReportsToStandardErrorAndCarriesOn() throws {
        let run = try ChildProgram.run("ReportOutsideATest")
        #expect(run.status == 0)
        #expect(run.output == "carried on\n")
        #expect(run.errors.contains("ReportOutsideATest/main.swift:1:1: error: reported outside a test"))
        #expect(run.errors.contains("sleepers still pending after 2 deadlines"))
        #expect(!run.errors.contains("link AmbientTesting"))
    }

    @Test func aProgramWithoutAmbientTestingSaysSoWhenItLooksLikeATestRun() throws {
        let plain = try ChildProgram.run("ReportWithoutAmbientTesting")
        #expect(plain.status == 0 && plain.output == "carried on\n")
        #expect(plain.errors.contains("error: reported without AmbientTesting"))
        #expect(!plain.errors.contains("link AmbientTesting"))
        let asATestRun = try ChildProgram.run(
            "ReportWithoutAmbientTesting", arguments: ["--testing-library", "swift-testing"])
        #expect(asATestRun.status == 0)
        #expect(
            asATestRun.errors.contains(
                "reported without AmbientTesting (this did not fail the test: link AmbientTesting into the test target)"
            ))
    }
}
