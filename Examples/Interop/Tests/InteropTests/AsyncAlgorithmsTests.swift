// SPDX-License-Identifier: Apache-2.0

import Ambient
import AsyncAlgorithms
import Foundation
import Testing
import TimeScenarios

/// swift-async-algorithms' time operators, driven by Ambient's `TestClock` in one `advance`,
/// fed by tasks the test starts inside the clock's scope: the work they do before time
/// moves (reaching the channel, the operator's own set-up) is counted with the work the
/// clock wakes, so no real-time wait is needed and the output is exact. 3,000 runs each
/// (`AMBIENT_ASYNC_ALGORITHMS_RUNS` to change), with two threads spinning. The debounce
/// also runs as a test writes it with `waitForSleepers` first and one 10-second advance; and
/// the debounce and a throttle as tests write them, values stamped with the clock's time, in
/// a `@MainActor` test and a nonisolated one (and, measured on request, in one isolated to an
/// actor of its own).
@Suite("TestClock driving swift-async-algorithms", .serialized)
struct AsyncAlgorithmsTests {
    static let runs = Int(ProcessInfo.processInfo.environment["AMBIENT_ASYNC_ALGORITHMS_RUNS"] ?? "") ?? 3_000

    @Test(arguments: TimeScenario.allCases)
    func everyRunGivesTheExactOutput(scenario: TimeScenario) async {
        let wrong = await wrongRuns(of: scenario, Self.runs) { .ambient() }
        let wrongCount = wrong.count
        #expect(wrongCount == 0, "\(wrongCount) of \(Self.runs) runs wrong, e.g. \(Array(wrong.prefix(3)))")
    }

    /// A `@MainActor` test (Xcode 26's default isolation) whose producer and consumer are
    /// `Task { }`s in its own body, so they run on the main actor, where no hook sees their
    /// jobs: `waitForSleepers` and `advance`, called there, follow them (see `WokenWork`). The debounce as tests
    /// write it, values stamped with the clock's time as the consumer receives them; two
    /// threads spinning.
    @MainActor @Test func aMainActorTestsOwnTasksAreFollowed() async throws {
        let spinning = Spinners(count: 2)
        defer { spinning.stop() }
        var wrong: [[String]] = []
        for _ in 0..<Self.runs {
            let testClock = TestClock()
            let channel = AsyncChannel<Int>()
            let received = Received()
            let (consumer, producer) = withInjected(testClock.clock) {
                (
                    Task {
                        let clock = Ambient.Clock.current.monotonic
                        for await value in channel.debounce(for: .milliseconds(300), clock: clock) {
                            received.append("\(value) at \(testClock.instant.offset)")
                        }
                    },
                    Task {
                        await channel.send(1)
                        try await Ambient.Clock.current.monotonic.sleep(for: .milliseconds(100))
                        await channel.send(2)
                        try await Ambient.Clock.current.monotonic.sleep(for: .milliseconds(400))
                        await channel.send(3)
                        try await Ambient.Clock.current.monotonic.sleep(for: .milliseconds(400))
                        channel.finish()
                    }
                )
            }
            try await testClock.waitForSleepers(2)
            await testClock.advance(by: .seconds(10))
            let output = received.values
            if output != ["2 at 0.4 seconds", "3 at 0.8 seconds"] { wrong.append(output) }
            producer.cancel()
            consumer.cancel()
            _ = await producer.result
        }
        let wrongCount = wrong.count
        #expect(wrongCount == 0, "\(wrongCount) of \(Self.runs) runs wrong, e.g. \(Array(wrong.prefix(3)))")
    }
}

extension AsyncAlgorithmsTests {
    /// The operators as a plain test writes them: a producer and a consumer as `Task { }`s
    /// started in the clock's scope, values stamped with the clock's time as the consumer
    /// receives them, `waitForSleepers`, then one 10-second `advance` from outside the scope;
    /// two threads spinning. Every run exact.
    @Test(arguments: PlainTaskPipeline.allCases)
    func plainTasksAreFollowed(pipeline: PlainTaskPipeline) async throws {
        let wrong = try await wrongOutputs(Self.runs, expected: pipeline.expected) { try await pipeline.run() }
        #expect(wrong.count == 0, "\(wrong.count) of \(Self.runs) runs wrong, e.g. \(Array(wrong.prefix(3)))")
    }

    /// The same in a test isolated to an actor of its own, so the tasks it starts run on
    /// that actor, whose queue no hook sees: each settle sends a marker through the actor.
    /// A task that leaves the actor in place (the runtime hands it the actor's thread) runs
    /// on uncounted while the test's own drain of the actor did not count: with two busy
    /// CPUs, 0 (debounce) and 11 (throttle) of 10,000 runs were wrong (before the markers,
    /// 14 and 36); with more load, more (18 in 1,000 beside a whole CI run). So it is a
    /// measurement, not a gate: it runs when `AMBIENT_ACTOR_GAP_RUNS` sets how many runs, and
    /// holds them to 1 wrong in 200.
    @Test(
        .enabled(if: ProcessInfo.processInfo.environment["AMBIENT_ACTOR_GAP_RUNS"] != nil),
        arguments: PlainTaskPipeline.allCases
    )
    func anActorsOwnTasksAreFollowedThroughIt(pipeline: PlainTaskPipeline) async throws {
        let runs = Int(ProcessInfo.processInfo.environment["AMBIENT_ACTOR_GAP_RUNS"] ?? "") ?? 1_000
        let wrong = try await wrongOutputs(runs, expected: pipeline.expected) {
            try await PipelineActor().run(pipeline)
        }
        #expect(wrong.count * 200 <= runs, "\(wrong.count) of \(runs) runs wrong, e.g. \(Array(wrong.prefix(3)))")
    }
}

/// A test's own actor: the pipeline's tasks, made in its methods, run on it.
actor PipelineActor {
    func run(_ pipeline: PlainTaskPipeline) async throws -> [String] { try await pipeline.run() }
}

/// A debounce and a throttle over a channel, each fed by a producer task and read by a
/// consumer task that stamps what it receives with the test clock's time.
enum PlainTaskPipeline: String, CaseIterable, Sendable {
    case debounce, throttle

    /// What one correct run receives, with the clock's time at each value.
    var expected: [String] {
        switch self {
        case .debounce: ["2 at 0.4 seconds", "3 at 0.8 seconds"]
        case .throttle:
            ["1 at 0.0 seconds", "4 at 1.2 seconds", "6 at 2.6 seconds", "8 at 4.0 seconds", "9 at 5.0 seconds"]
        }
    }

    /// The values the producer sends, each after sleeping the milliseconds beside it.
    private var sends: [(value: Int, afterMilliseconds: Int)] {
        switch self {
        case .debounce: [(1, 0), (2, 100), (3, 400)]
        case .throttle: [(1, 0), (2, 400), (3, 400), (4, 400), (5, 700), (6, 700), (7, 700), (8, 700), (9, 1000)]
        }
    }

    /// The tasks that sleep on the clock once the pipeline is set up: the producer, and the
    /// debounce's own timer.
    private var sleepers: Int { self == .debounce ? 2 : 1 }

    /// One run with a fresh test clock: what the consumer had received when the advance returned.
    /// The tasks take the caller's isolation: they run on its actor where it has one.
    func run(isolation: isolated (any Actor)? = #isolation) async throws -> [String] {
        let testClock = TestClock()
        let channel = AsyncChannel<Int>()
        let received = Received()
        let sends = sends
        let (consumer, producer) = withInjected(testClock.clock) {
            (
                Task {
                    _ = isolation
                    let clock = Ambient.Clock.current.monotonic
                    switch self {
                    case .debounce:
                        for await value in channel.debounce(for: .milliseconds(300), clock: clock) {
                            received.append("\(value) at \(testClock.instant.offset)")
                        }
                    case .throttle:
                        for await value in channel._throttle(for: .seconds(1), clock: clock, latest: true) {
                            received.append("\(value) at \(testClock.instant.offset)")
                        }
                    }
                },
                Task {
                    _ = isolation
                    for (value, milliseconds) in sends {
                        if milliseconds > 0 {
                            try await Ambient.Clock.current.monotonic.sleep(for: .milliseconds(milliseconds))
                        }
                        await channel.send(value)
                    }
                    try await Ambient.Clock.current.monotonic.sleep(for: .milliseconds(400))
                    channel.finish()
                }
            )
        }
        try await testClock.waitForSleepers(sleepers)
        await testClock.advance(by: .seconds(10))
        let output = received.values
        producer.cancel()
        consumer.cancel()
        _ = await producer.result
        return output
    }
}

/// What the consumer received, appended from its task.
final class Received: @unchecked Sendable {
    // @unchecked: `stored` is only touched with `lock` held.
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ value: String) { lock.withLock { stored.append(value) } }
    var values: [String] { lock.withLock { stored } }
}
