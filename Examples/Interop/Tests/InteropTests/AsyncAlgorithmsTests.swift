// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation
import Testing
import TimeScenarios

/// swift-async-algorithms' time operators, driven by Ambient's `TestClock` in one `advance`,
/// fed by tasks the test starts inside the clock's scope: the work they do before time
/// moves (reaching the channel, the operator's own set-up) is counted with the work the
/// clock wakes, so no real-time wait is needed and the output is exact. 3,000 runs each
/// (`AMBIENT_ASYNC_ALGORITHMS_RUNS` to change), with two threads spinning. The debounce
/// also runs as a test writes it with `waitForSleepers` first and one 10-second advance.
@Suite("TestClock driving swift-async-algorithms", .serialized)
struct AsyncAlgorithmsTests {
    static let runs = Int(ProcessInfo.processInfo.environment["AMBIENT_ASYNC_ALGORITHMS_RUNS"] ?? "") ?? 3_000

    @Test(arguments: TimeScenario.allCases)
    func everyRunGivesTheExactOutput(scenario: TimeScenario) async {
        let wrong = await wrongRuns(of: scenario, Self.runs) { .ambient() }
        let wrongCount = wrong.count
        #expect(wrongCount == 0, "\(wrongCount) of \(Self.runs) runs wrong, e.g. \(Array(wrong.prefix(3)))")
    }

    /// A `@MainActor` test (Xcode 26's default isolation) whose pipeline is set up by
    /// nonisolated code: the tasks run on the global executor, where the clock counts them.
    /// (Started by `Task { }` in the test's own body they would inherit the main actor and
    /// hop back to it after every sleep, which no hook sees.)
    @MainActor @Test func aMainActorTestWithThePipelineSetUpOffTheMainActor() async {
        let wrong = await wrongRuns(of: .debounceAfterSleepers, Self.runs) { .ambient() }
        let wrongCount = wrong.count
        #expect(wrongCount == 0, "\(wrongCount) of \(Self.runs) runs wrong, e.g. \(Array(wrong.prefix(3)))")
    }
}
