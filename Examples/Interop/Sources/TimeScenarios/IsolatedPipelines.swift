// SPDX-License-Identifier: Apache-2.0

// The time pipelines as a test writes them, from each isolation a test can have: a producer
// and a consumer (or a timer's consumer) started as `Task { }`s in the clock's scope, values
// stamped with the clock's time as the consumer receives them, `waitForSleepers`, then one
// 10-second `advance` from outside the scope. The tasks take the test's isolation: they run
// on its actor where it has one. InteropTests holds every pair to 0 wrong runs; the
// `SettleGaps` executable prints the table for any number of runs.
import Ambient
import AmbientTestClock
import AsyncAlgorithms
import Foundation

/// A debounce, a throttle and a timer, each read by a consumer task that stamps what it
/// receives with the test clock's time.
public enum TestPipeline: String, CaseIterable, Sendable {
    case debounce, throttle, timer

    /// What one correct run receives, with the clock's time at each value.
    public var expected: [String] {
        switch self {
        case .debounce: ["2 at 0.4 seconds", "3 at 0.8 seconds"]
        case .throttle:
            ["1 at 0.0 seconds", "4 at 1.2 seconds", "6 at 2.6 seconds", "8 at 4.0 seconds", "9 at 5.0 seconds"]
        case .timer:
            ["1 at 1.0 seconds", "2 at 2.0 seconds", "3 at 3.0 seconds", "4 at 4.0 seconds", "5 at 5.0 seconds"]
        }
    }

    /// The values the producer sends, each after sleeping the milliseconds beside it.
    private var sends: [(value: Int, afterMilliseconds: Int)] {
        switch self {
        case .debounce: [(1, 0), (2, 100), (3, 400)]
        case .throttle: [(1, 0), (2, 400), (3, 400), (4, 400), (5, 700), (6, 700), (7, 700), (8, 700), (9, 1000)]
        case .timer: []
        }
    }

    /// The tasks asleep on the clock once the pipeline is set up: the producer, and the
    /// debounce's own timer; the timer's consumer.
    private var sleepers: Int { self == .debounce ? 2 : 1 }

    /// One run with a fresh test clock: what the consumer had received when the advance
    /// returned. The tasks take the caller's isolation: they run on its actor where it has one.
    public func run(isolation: isolated (any Actor)? = #isolation) async throws -> [String] {
        let testClock = TestClock()
        let channel = AsyncChannel<Int>()
        let received = Collected<String>()
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
                    case .timer:
                        var ticks = 0
                        for await _ in AsyncTimerSequence(interval: .seconds(1), clock: clock) {
                            ticks += 1
                            received.append("\(ticks) at \(testClock.instant.offset)")
                            if ticks == 5 { break }
                        }
                    }
                },
                Task {
                    _ = isolation
                    guard !sends.isEmpty else { return }
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
        _ = await consumer.result
        return output
    }
}

/// Where a test runs, and so where the tasks it starts run.
public enum TestIsolation: String, CaseIterable, Sendable {
    /// A plain test: its tasks run on the global executor.
    case nonisolated
    /// A `@MainActor` test (Xcode 26's default isolation).
    case mainActor
    /// A test isolated to a global actor of the app's: one actor for every run, as for
    /// every test isolated to it.
    case globalActor
    /// A test isolated to an actor of its own: a fresh one each run.
    case ownActor

    /// One run of `pipeline` from this isolation.
    public func run(_ pipeline: TestPipeline) async throws -> [String] {
        switch self {
        case .nonisolated: try await Self.runNonisolated(pipeline)
        case .mainActor: try await Self.runOnMainActor(pipeline)
        case .globalActor: try await Self.runOnGlobalActor(pipeline)
        case .ownActor: try await PipelineActor().run(pipeline)
        }
    }

    private static func runNonisolated(_ pipeline: TestPipeline) async throws -> [String] {
        try await pipeline.run()
    }

    @MainActor private static func runOnMainActor(_ pipeline: TestPipeline) async throws -> [String] {
        try await pipeline.run()
    }

    @PipelineGlobalActor private static func runOnGlobalActor(_ pipeline: TestPipeline) async throws -> [String] {
        try await pipeline.run()
    }
}

/// An app's global actor.
@globalActor public actor PipelineGlobalActor {
    /// The one instance.
    public static let shared = PipelineGlobalActor()
}

/// A test's own actor: the pipeline's tasks, made in its methods, run on it.
actor PipelineActor {
    func run(_ pipeline: TestPipeline) async throws -> [String] { try await pipeline.run() }
}
