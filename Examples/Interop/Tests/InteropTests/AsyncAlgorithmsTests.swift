import Ambient
import AsyncAlgorithms
import Foundation
import Testing

/// swift-async-algorithms' time operators, driven by a `TestClock` in one `advance`, fed by
/// tasks the test starts inside the clock's scope: the work they do before time moves
/// (reaching the channel, the operator's own set-up) is counted with the work the clock
/// wakes, so no real-time wait is needed and the output is exact. 3,000 runs each, with
/// two threads spinning on the other cores.
@Suite("TestClock driving swift-async-algorithms", .serialized)
struct AsyncAlgorithmsTests {
    static let runs = Int(ProcessInfo.processInfo.environment["AMBIENT_ASYNC_ALGORITHMS_RUNS"] ?? "") ?? 3_000

    @Test func debounceFedByAChannel() async {
        await expectEveryRun(Self.runs, expected: [2, 3]) { await debounceRun() }
    }

    @Test func throttleFedByAChannel() async {
        await expectEveryRun(Self.runs, expected: [1, 4]) { await throttleRun() }
    }

    @Test func timerTicksOncePerInterval() async {
        await expectEveryRun(Self.runs, expected: [1, 2, 3, 4, 5]) { await timerRun() }
    }
}

/// Runs `run` `count` times with two threads spinning, and expects `expected` every time.
func expectEveryRun(_ count: Int, expected: [Int], _ run: () async -> [Int]) async {
    let spinning = Spinners(count: 2)
    defer { spinning.stop() }
    var wrong: [[Int]] = []
    for _ in 0..<count {
        let output = await run()
        if output != expected { wrong.append(output) }
    }
    let wrongRuns = wrong.count
    #expect(wrongRuns == 0, "\(wrongRuns) of \(count) runs wrong, e.g. \(Array(wrong.prefix(3)))")
}

/// Values 1 and 2 100 ms apart, 3 400 ms later, then the end: a 300 ms debounce emits 2
/// (at 400 ms) and 3 (at 800 ms).
func debounceRun() async -> [Int] {
    let testClock = TestClock()
    return await withInjected(testClock.clock) {
        let channel = AsyncChannel<Int>()
        let output = Collected()
        let consumer = Task<Void, any Error> {
            for await value in channel.debounce(for: .milliseconds(300), clock: Clock.current.monotonic) {
                output.append(value)
            }
        }
        let producer = Task<Void, any Error> {
            await channel.send(1)
            try await Clock.current.sleep(for: .milliseconds(100))
            await channel.send(2)
            try await Clock.current.sleep(for: .milliseconds(400))
            await channel.send(3)
            try await Clock.current.sleep(for: .milliseconds(400))
            channel.finish()
        }
        await testClock.advance(by: .seconds(2))
        return await outputAfterOneAdvance(output, stopping: producer, consumer)
    }
}

/// Values at 0, 100, 200 and 400 ms: a 300 ms throttle keeping the latest emits 1 at once
/// and 4, the latest, at 400 ms.
func throttleRun() async -> [Int] {
    let testClock = TestClock()
    return await withInjected(testClock.clock) {
        let channel = AsyncChannel<Int>()
        let output = Collected()
        let consumer = Task<Void, any Error> {
            for await value in channel._throttle(for: .milliseconds(300), clock: Clock.current.monotonic, latest: true)
            {
                output.append(value)
            }
        }
        let producer = Task<Void, any Error> {
            await channel.send(1)
            try await Clock.current.sleep(for: .milliseconds(100))
            await channel.send(2)
            try await Clock.current.sleep(for: .milliseconds(100))
            await channel.send(3)
            try await Clock.current.sleep(for: .milliseconds(200))
            await channel.send(4)
            channel.finish()
        }
        await testClock.advance(by: .seconds(1))
        return await outputAfterOneAdvance(output, stopping: producer, consumer)
    }
}

/// A one-second timer, read by a task the test starts, over five seconds: five ticks.
func timerRun() async -> [Int] {
    let testClock = TestClock()
    return await withInjected(testClock.clock) {
        let output = Collected()
        let consumer = Task<Void, any Error> {
            var ticks = 0
            for await _ in AsyncTimerSequence(interval: .seconds(1), clock: Clock.current.monotonic) {
                ticks += 1
                output.append(ticks)
                if ticks == 5 { break }
            }
        }
        await testClock.advance(by: .seconds(5))
        return await outputAfterOneAdvance(output, stopping: consumer)
    }
}

/// What was output when the one `advance` returned; then the tasks are cancelled (a run
/// that went wrong must not leave a task asleep on its clock forever).
func outputAfterOneAdvance<each Success>(
    _ output: Collected, stopping tasks: repeat Task<each Success, any Error>
) async -> [Int] {
    let values = output.values
    for task in repeat each tasks {
        task.cancel()
        _ = await task.result
    }
    return values
}

/// Values appended from other tasks.
final class Collected: @unchecked Sendable {
    // @unchecked: `stored` is only touched with `lock` held.
    private let lock = NSLock()
    private var stored: [Int] = []
    func append(_ value: Int) { lock.withLock { stored.append(value) } }
    var values: [Int] { lock.withLock { stored } }
}

/// Threads that spin until stopped: busy CPUs.
final class Spinners: @unchecked Sendable {
    // @unchecked: `running` is only touched with `lock` held.
    private let lock = NSLock()
    private var running = true

    init(count: Int) {
        for _ in 0..<count {
            Thread { [self] in
                while lock.withLock({ running }) {}
            }.start()
        }
    }

    func stop() { lock.withLock { running = false } }
}
