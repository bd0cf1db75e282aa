// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation
import Testing
import TimeScenarios

/// swift-async-algorithms' time operators, driven by Ambient's `TestClock` in one `advance`,
/// fed by tasks the test starts inside the clock's scope: the work they do before time
/// moves (reaching the channel, the operator's own set-up) is counted with the work the
/// clock wakes, so no real-time wait is needed and the output is exact. 3,000 runs each
/// (`AMBIENT_ASYNC_ALGORITHMS_RUNS` to change), with two threads spinning.
@Suite("TestClock driving swift-async-algorithms", .serialized)
struct AsyncAlgorithmsTests {
    static let runs = Int(ProcessInfo.processInfo.environment["AMBIENT_ASYNC_ALGORITHMS_RUNS"] ?? "") ?? 3_000

    @Test(arguments: TimeScenario.allCases)
    func everyRunGivesTheExactOutput(scenario: TimeScenario) async {
        let wrong = await wrongRuns(of: scenario, Self.runs) { .ambient() }
        let wrongCount = wrong.count
        #expect(wrongCount == 0, "\(wrongCount) of \(Self.runs) runs wrong, e.g. \(Array(wrong.prefix(3)))")
    }
}
