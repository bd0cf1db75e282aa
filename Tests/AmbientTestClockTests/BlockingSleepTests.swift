// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import AmbientTestClock
import Dispatch
import Foundation
import Testing

/// `try Clock.current.sleep(for:)` in synchronous code: what old GCD retry loops and worker
/// threads called `Thread.sleep(forTimeInterval:)` for. Every case runs on a `Thread` or a
/// Dispatch queue, never on a thread of the concurrency pool.
@Suite("Clock: blocking sleep in synchronous code")
struct BlockingSleepTests {
    /// A legacy retry loop, ported by changing `Thread.sleep(forTimeInterval:)` alone.
    static func fetchWithRetries(attempts: Int, _ fetch: () -> String?) throws -> String? {
        for attempt in 1...attempts {
            if let value = fetch() { return value }
            try Clock.current.sleep(for: .seconds(attempt))
        }
        return nil
    }

    @Test func theLiveClockBlocksTheThread() async {
        let slept = await onOwnThread {
            let start = ContinuousClock.now
            try? Clock.live.sleep(for: .milliseconds(50))
            return ContinuousClock.now - start
        }
        #expect(slept >= .milliseconds(50))
    }

    @Test func fixedAndImmediateClocksReturnAtOnce() {
        let start = Date(timeIntervalSince1970: 0)
        let immediate = Clock.immediate(start: start)
        let result = onQueue(.global()) {
            withInjected(immediate) {
                try? Self.fetchWithRetries(attempts: 3) { nil }  // 1 s + 2 s + 3 s of back-off
            }
        }
        #expect(result == .some(nil))
        #expect(immediate.now == start.addingTimeInterval(6), "the immediate clock moved by what was slept")

        let fixed = Clock.fixed(start)
        let began = ContinuousClock.now
        onNewThread { try? fixed.sleep(for: .seconds(3_600)) }
        #expect(ContinuousClock.now - began < .seconds(60))
        #expect(fixed.now == start)
    }

    @Test func aTestClockBlocksUntilTimeIsAdvanced() async throws {
        let testClock = TestClock()
        let calls = Locked(0)
        let finished = DispatchSemaphore(value: 0)
        let result = Locked<String??>(nil)
        Thread {
            let value = withInjected(testClock.clock) {
                try? Self.fetchWithRetries(attempts: 3) {
                    calls.increment() == 3 ? "data" : nil
                }
            }
            result.set(value)
            finished.signal()
        }.start()

        try await testClock.waitForSleepers()  // the thread is blocked in its first back-off
        #expect(testClock.sleepers == 1)
        #expect(calls.get() == 1)
        await testClock.advance(by: .seconds(1))
        try await testClock.waitForSleepers()  // the second back-off, 2 s
        #expect(calls.get() == 2)
        await testClock.advance(by: .seconds(2))
        await Task.detached { finished.wait() }.value
        #expect(result.get() == .some("data"))
        #expect(testClock.instant.offset == .seconds(3))
    }

    @Test func runWakesABlockedQueue() async throws {
        let testClock = TestClock()
        let done = Locked(false)
        DispatchQueue(label: "legacy worker").async {
            withInjected(testClock.clock) {
                try? Clock.current.sleep(for: .seconds(30))
                try? Clock.current.sleep(for: .seconds(30))
            }
            done.set(true)
        }
        try await testClock.waitForSleepers()
        await testClock.advance(by: .seconds(30))  // a thread is not counted: wait for its next sleep
        try await testClock.waitForSleepers()
        await testClock.run()
        let deadline = ContinuousClock.now + .seconds(60)
        while !done.get(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
        #expect(done.get())
        #expect(testClock.instant.offset == .seconds(60))
    }

    @Test func aCancelledTasksSynchronousSleepThrows() async {
        let task = Task.detached {
            withUnsafeCurrentTask { $0?.cancel() }
            return Result { try Self.sleepSynchronously() }
        }
        let outcome = await task.value
        #expect(throws: CancellationError.self) { try outcome.get() }
    }

    /// A synchronous `@Test` runs in a task: a test clock's blocking sleep there could only
    /// wait for an `advance` this blocked test will never make. It throws at once instead,
    /// naming the way out, and nothing sleeps.
    @Test func aTestClocksBlockingSleepInsideATaskThrowsAtOnce() {
        let testClock = TestClock()
        let began = ContinuousClock.now
        let error = #expect(throws: Clock.BlockingSleepInsideATask.self) {
            try withInjected(testClock.clock) { try Self.fetchWithRetries(attempts: 2) { nil } }
        }
        #expect(ContinuousClock.now - began < .seconds(30))
        #expect(testClock.sleepers == 0)
        #expect(error?.description.contains("try await Clock.current.sleep(for:)") == true)
        #expect(error?.description.contains("a thread of your own") == true)
    }

    @Test func aWrappedSwiftClockInsideADetachedTaskThrowsToo() async {
        let outcome = await Task.detached {
            Result { try Clock(ContinuousClock(), wallTimeAtStart: Date()).sleep(for: .seconds(3_600)) }
        }.value
        #expect(throws: Clock.BlockingSleepInsideATask.self) { try outcome.get() }
    }

    /// The live clock always wakes by itself: inside a task it blocks, as
    /// `Thread.sleep(forTimeInterval:)` did, and does not throw.
    @Test func theLiveClocksBlockingSleepInsideATaskSleeps() throws {
        let began = ContinuousClock.now
        try Clock.live.sleep(for: .milliseconds(5))
        #expect(ContinuousClock.now - began >= .milliseconds(5))
    }

    /// Synchronous code that a task happens to run.
    static func sleepSynchronously() throws {
        try Clock.fixed(Date()).sleep(for: .seconds(1))
    }
}
