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

/// What the consumer received, appended from its task.
final class Received: @unchecked Sendable {
    // @unchecked: `stored` is only touched with `lock` held.
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ value: String) { lock.withLock { stored.append(value) } }
    var values: [String] { lock.withLock { stored } }
}
