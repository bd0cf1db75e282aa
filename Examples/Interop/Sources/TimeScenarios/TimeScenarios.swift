// SPDX-License-Identifier: Apache-2.0

// Time code written with swift-async-algorithms, as a test drives it with a test clock: a
// debounce and a throttle over a channel fed by a producer task and read by a consumer
// task, and a timer read by a consumer task, all started by the test and driven by ONE
// advance. The same code runs against Ambient's `TestClock` (InteropTests, 3,000 runs each)
// and swift-clocks' (`CompareTestClocks`, which prints how often each gets it right).
import Ambient
import AmbientTestClock
import AsyncAlgorithms
import Foundation

/// A test clock as a scenario uses it: the `Swift.Clock` the operators and the tasks sleep
/// on, how the test moves it, and the scope the test sets the pipeline up in.
public struct ScenarioClock<C: Swift.Clock>: Sendable where C.Duration == Duration {
    /// The clock the operators and the tasks sleep on.
    public let clock: C
    /// Moves the clock by a span, as the test does: once per run.
    public let advance: @Sendable (Duration) async -> Void
    /// Runs the test's set-up and its advance in the clock's scope, where it has one.
    public let scope: @Sendable (@Sendable () async -> [Int]) async -> [Int]
    /// Waits until this many tasks sleep on the clock, as a test does before it moves time
    /// (where the clock has no such wait, it yields).
    public let waitForSleepers: @Sendable (Int) async -> Void

    /// A scenario clock from its parts.
    public init(
        clock: C, advance: @escaping @Sendable (Duration) async -> Void,
        scope: @escaping @Sendable (@Sendable () async -> [Int]) async -> [Int],
        waitForSleepers: @escaping @Sendable (Int) async -> Void = { _ in
            for _ in 0..<100 { await Task.yield() }
        }
    ) {
        self.clock = clock
        self.advance = advance
        self.scope = scope
        self.waitForSleepers = waitForSleepers
    }
}

extension ScenarioClock where C == Ambient.Clock.Monotonic {
    /// A fresh Ambient `TestClock`, the pipeline set up inside its scope (as its docs say).
    public static func ambient() -> Self {
        let testClock = TestClock()
        return ScenarioClock(
            clock: testClock.clock.monotonic,
            advance: { await testClock.advance(by: $0) },
            scope: { body in await withInjected(testClock.clock) { await body() } },
            waitForSleepers: { try? await testClock.waitForSleepers($0) })
    }
}

/// The scenarios and the output each must give.
public enum TimeScenario: String, CaseIterable, Sendable {
    case debounce, debounceAfterSleepers, throttle, timer

    /// What one correct run outputs.
    public var expected: [Int] {
        switch self {
        case .debounce, .debounceAfterSleepers: [2, 3]
        case .throttle: [1, 4]
        case .timer: [1, 2, 3, 4, 5]
        }
    }

    /// One run with a fresh clock from `makeClock`: the output when the one advance returned.
    public func run<C>(_ makeClock: @Sendable () -> ScenarioClock<C>) async -> [Int] {
        let clock = makeClock()
        switch self {
        case .debounce: return await debounceRun(clock)
        case .debounceAfterSleepers: return await debounceRun(clock, waitingForSleepers: true)
        case .throttle: return await throttleRun(clock)
        case .timer: return await timerRun(clock)
        }
    }
}

/// Values 1 and 2 100 ms apart, 3 400 ms later, then the end: a 300 ms debounce emits 2
/// (at 400 ms) and 3 (at 800 ms). Waiting for sleepers: the test first waits until the
/// producer and the debounce sleep, then moves the clock 10 seconds at once.
func debounceRun<C>(_ c: ScenarioClock<C>, waitingForSleepers: Bool = false) async -> [Int] {
    await c.scope {
        let channel = AsyncChannel<Int>()
        let output = Collected<Int>()
        let consumer = Task<Void, any Error> {
            for await value in channel.debounce(for: .milliseconds(300), clock: c.clock) { output.append(value) }
        }
        let producer = Task<Void, any Error> {
            await channel.send(1)
            try await c.clock.sleep(for: .milliseconds(100))
            await channel.send(2)
            try await c.clock.sleep(for: .milliseconds(400))
            await channel.send(3)
            try await c.clock.sleep(for: .milliseconds(400))
            channel.finish()
        }
        if waitingForSleepers {
            await c.waitForSleepers(2)
            await c.advance(.seconds(10))
        } else {
            await c.advance(.seconds(2))
        }
        return await outputAfterOneAdvance(output, stopping: producer, consumer)
    }
}

/// Values at 0, 100, 200 and 400 ms: a 300 ms throttle keeping the latest emits 1 at once
/// and 4, the latest, at 400 ms.
func throttleRun<C>(_ c: ScenarioClock<C>) async -> [Int] {
    await c.scope {
        let channel = AsyncChannel<Int>()
        let output = Collected<Int>()
        let consumer = Task<Void, any Error> {
            for await value in channel._throttle(for: .milliseconds(300), clock: c.clock, latest: true) {
                output.append(value)
            }
        }
        let producer = Task<Void, any Error> {
            await channel.send(1)
            try await c.clock.sleep(for: .milliseconds(100))
            await channel.send(2)
            try await c.clock.sleep(for: .milliseconds(100))
            await channel.send(3)
            try await c.clock.sleep(for: .milliseconds(200))
            await channel.send(4)
            channel.finish()
        }
        await c.advance(.seconds(1))
        return await outputAfterOneAdvance(output, stopping: producer, consumer)
    }
}

/// A one-second timer, read by a task the test starts, over five seconds: five ticks.
func timerRun<C>(_ c: ScenarioClock<C>) async -> [Int] {
    await c.scope {
        let output = Collected<Int>()
        let consumer = Task<Void, any Error> {
            var ticks = 0
            for await _ in AsyncTimerSequence(interval: .seconds(1), clock: c.clock) {
                ticks += 1
                output.append(ticks)
                if ticks == 5 { break }
            }
        }
        await c.advance(.seconds(5))
        return await outputAfterOneAdvance(output, stopping: consumer)
    }
}

/// What was output when the one advance returned; then the tasks are cancelled (a run that
/// went wrong must not leave a task asleep on its clock forever).
func outputAfterOneAdvance<each Success>(
    _ output: Collected<Int>, stopping tasks: repeat Task<each Success, any Error>
) async -> [Int] {
    let values = output.values
    for task in repeat each tasks {
        task.cancel()
        _ = await task.result
    }
    return values
}

/// Runs `scenario` `count` times with fresh clocks from `makeClock` while two threads spin
/// on the other cores; returns the wrong outputs.
public func wrongRuns<C>(
    of scenario: TimeScenario, _ count: Int, spinningThreads: Int = 2, _ makeClock: @Sendable () -> ScenarioClock<C>
) async -> [[Int]] {
    await wrongOutputs(count, expected: scenario.expected, spinningThreads: spinningThreads) {
        await scenario.run(makeClock)
    }
}

/// Runs `run` `count` times while `spinningThreads` threads spin on the other cores, on
/// the caller's actor; returns the outputs that differ from `expected`.
public func wrongOutputs<Output: Equatable>(
    _ count: Int, expected: Output, spinningThreads: Int = 2, isolation: isolated (any Actor)? = #isolation,
    _ run: () async throws -> Output
) async rethrows -> [Output] {
    let spinning = Spinners(count: spinningThreads)
    defer { spinning.stop() }
    var wrong: [Output] = []
    for _ in 0..<count {
        let output = try await run()
        if output != expected { wrong.append(output) }
    }
    return wrong
}

/// Values appended from other tasks.
final class Collected<Element: Sendable>: @unchecked Sendable {
    // @unchecked: `stored` is only touched with `lock` held.
    private let lock = NSLock()
    private var stored: [Element] = []
    func append(_ value: Element) { lock.withLock { stored.append(value) } }
    var values: [Element] { lock.withLock { stored } }
}

/// Threads that spin until stopped: busy CPUs.
public final class Spinners: @unchecked Sendable {
    // @unchecked: `running` is only touched with `lock` held.
    private let lock = NSLock()
    private var running = true

    /// Starts `count` threads spinning.
    public init(count: Int) {
        for _ in 0..<count {
            Thread { [self] in
                while lock.withLock({ running }) {}
            }.start()
        }
    }

    /// Stops every thread.
    public func stop() { lock.withLock { running = false } }
}
