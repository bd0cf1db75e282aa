// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientTestClock
import AsyncAlgorithms
import Foundation
import Testing
import TimeScenarios

/// swift-async-algorithms' time operators, driven by Ambient's `TestClock` in one `advance`,
/// fed by tasks the test starts inside the clock's scope: the work they do before time
/// moves (reaching the channel, the operator's own set-up) is counted with the work the
/// clock wakes, so no real-time wait is needed and the output is exact. With two threads
/// spinning, every run of these must be exact:
/// - the scenarios set up inside the clock's scope (`AMBIENT_ASYNC_ALGORITHMS_RUNS` runs
///   each, 3,000 by default);
/// - the debounce, the throttle and the timer as tests write them (`TestPipeline`), from
///   each isolation a test can have (`TestIsolation`: nonisolated, the main actor, a global
///   actor shared by every run, an actor of the test's own), 3,000 runs each by default
///   (`AMBIENT_ACTOR_GAP_RUNS` to change; `SettleGaps` prints the table in a release build);
/// - the same from a `@MainActor` test and a test isolated to a global actor, as Swift
///   Testing runs them.
@Suite("TestClock driving swift-async-algorithms", .serialized)
struct AsyncAlgorithmsTests {
    static let runs = Int(ProcessInfo.processInfo.environment["AMBIENT_ASYNC_ALGORITHMS_RUNS"] ?? "") ?? 3_000
    static let isolationRuns = Int(ProcessInfo.processInfo.environment["AMBIENT_ACTOR_GAP_RUNS"] ?? "") ?? 3_000

    @Test(arguments: TimeScenario.allCases)
    func everyRunGivesTheExactOutput(scenario: TimeScenario) async {
        let wrong = await wrongRuns(of: scenario, Self.runs) { .ambient() }
        let wrongCount = wrong.count
        #expect(wrongCount == 0, "\(wrongCount) of \(Self.runs) runs wrong, e.g. \(Array(wrong.prefix(3)))")
    }

    /// Each pipeline from each isolation: the tasks the test starts take its isolation, so
    /// on an actor they run where no hook sees their jobs, and one that leaves the actor in
    /// place runs on in the actor's drain (see `WokenWork`). Every run exact.
    @Test(arguments: TestPipeline.allCases, TestIsolation.allCases)
    func everyIsolationGivesTheExactOutput(pipeline: TestPipeline, isolation: TestIsolation) async throws {
        try await Self.expectEveryRunExact(pipeline) { try await isolation.run(pipeline) }
    }

    /// Runs `run` (one run of `pipeline`) `isolationRuns` times on the caller's actor, two
    /// threads spinning, and expects every run's output exact.
    static func expectEveryRunExact(
        _ pipeline: TestPipeline, isolation: isolated (any Actor)? = #isolation,
        _ run: () async throws -> [String]
    ) async throws {
        let wrong = try await wrongOutputs(isolationRuns, expected: pipeline.expected, run)
        #expect(wrong.count == 0, "\(wrong.count) of \(isolationRuns) runs wrong, e.g. \(Array(wrong.prefix(3)))")
    }

    /// A `@MainActor` test (Xcode 26's default isolation) whose producer and consumer are
    /// `Task { }`s in its own body, so they run on the main actor, where no hook sees their
    /// jobs: `waitForSleepers` and `advance`, called there, follow them.
    @MainActor @Test(arguments: TestPipeline.allCases)
    func aMainActorTestsOwnTasksAreFollowed(pipeline: TestPipeline) async throws {
        try await Self.expectEveryRunExact(pipeline) { try await pipeline.run() }
    }

    /// A test isolated to a global actor: its tasks run on that actor, which every such test
    /// shares, so a drain left from one run may still hold it as the next begins.
    @PipelineGlobalActor @Test(arguments: TestPipeline.allCases)
    func aGlobalActorTestsOwnTasksAreFollowed(pipeline: TestPipeline) async throws {
        try await Self.expectEveryRunExact(pipeline) { try await pipeline.run() }
    }
}
