// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import AmbientTestClock
import Foundation
import Testing

@Suite("TestClock")
struct TestClockTests {
    @Test func timeMovesOnlyWhenTheTestSaysSo() async throws {
        let testClock = TestClock(start: Date(timeIntervalSince1970: 0))
        let reminder = Task {
            try await withInjected(testClock.clock) {
                try await Clock.current.sleep(for: .seconds(60))
                return Clock.current.now
            }
        }
        await waitUntil { testClock.sleepers == 1 }
        await testClock.advance(by: .seconds(59))
        #expect(testClock.sleepers == 1)
        await testClock.advance(by: .seconds(1))
        #expect(try await reminder.value == Date(timeIntervalSince1970: 60))
        #expect(testClock.sleepers == 0)
        #expect(testClock.instant.offset == .seconds(60))
    }

    @Test func waitForSleepersReturnsOnceTheCodeIsAsleep() async throws {
        let testClock = TestClock(start: Date(timeIntervalSince1970: 0))
        let reminder = Task {
            try await withInjected(testClock.clock) {
                for _ in 0..<100 { await Task.yield() }  // some work before it sleeps
                try await Clock.current.sleep(for: .seconds(60))
                return Clock.current.now
            }
        }
        // 100 trips through the global queue: generous under a sanitizer's parallel run.
        try await testClock.waitForSleepers(timeout: .seconds(120))
        #expect(testClock.sleepers == 1)
        await testClock.advance(by: .seconds(60))
        #expect(try await reminder.value == Date(timeIntervalSince1970: 60))
        try await testClock.waitForSleepers(0)  // nothing to wait for
    }

    @Test func waitForSleepersCountsEverySleeper() async throws {
        let testClock = TestClock()
        let sleepers = (1...3).map { seconds in
            Task { try await withInjected(testClock.clock) { try await Clock.current.sleep(for: .seconds(seconds)) } }
        }
        try await testClock.waitForSleepers(3)
        #expect(testClock.sleepers == 3)
        try await testClock.waitForSleepers(2)  // already satisfied: returns at once
        await testClock.run()
        for sleeper in sleepers { try await sleeper.value }
    }

    @Test func waitForSleepersGivesUpWithAnErrorNamingTheCounts() async {
        let testClock = TestClock()
        let error = await #expect(throws: TestClock.SleepersTimeout.self) {
            try await testClock.waitForSleepers(2, timeout: .milliseconds(20))
        }
        #expect(error?.expected == 2)
        #expect(error?.actual == 0)
        #expect(error?.description.contains("only 0 asleep") == true)
    }

    @Test func waitForSleepersIsCancellable() async {
        let testClock = TestClock()
        let waiter = Task { try await testClock.waitForSleepers(timeout: .seconds(60)) }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
    }

    @Test func sleepersWakeInDeadlineOrderAndTiesInArrivalOrder() async throws {
        let testClock = TestClock()
        let order = Recorder()
        var tasks: [Task<Void, any Error>] = []
        for (name, seconds) in [("c", 30), ("a", 10), ("b1", 20), ("b2", 20), ("b3", 20)] {
            tasks.append(
                Task {
                    try await testClock.clock.sleep(for: .seconds(seconds))
                    order.append("\(name)@\(Int(testClock.instant.offset.components.seconds))")
                })
            let expected = tasks.count
            await waitUntil { testClock.sleepers == expected }  // fixes the arrival order
        }
        await testClock.advance(by: .seconds(25))
        #expect(order.values == ["a@10", "b1@20", "b2@20", "b3@20"])
        await testClock.advance(by: .seconds(25))
        for task in tasks { try await task.value }
        #expect(order.values == ["a@10", "b1@20", "b2@20", "b3@20", "c@30"])
    }

    @Test func aTaskThatSleepsAgainWithinTheSpanIsWokenAgain() async throws {
        let testClock = TestClock()
        let ticks = Recorder()
        let ticker = Task {
            for _ in 0..<5 {
                try await testClock.clock.sleep(for: .seconds(1))
                ticks.append("\(testClock.instant.offset)")
            }
        }
        await waitUntil { testClock.sleepers == 1 }
        await testClock.advance(by: .seconds(3))
        #expect(ticks.values == ["1.0 seconds", "2.0 seconds", "3.0 seconds"])
        await testClock.run()
        try await ticker.value
        #expect(ticks.values.count == 5)
        #expect(testClock.instant.offset == .seconds(5))
    }

    @Test func aSleepInACancelledTaskThrowsAtOnce() async {
        let clock = TestClock().clock
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(10))
        }
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func cancellingASleeperRemovesItAndThrows() async {
        let testClock = TestClock()
        let sleeper = Task { try await testClock.clock.sleep(for: .seconds(10)) }
        await waitUntil { testClock.sleepers == 1 }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(testClock.sleepers == 0)
        await testClock.advance(by: .seconds(20))  // nothing left to wake
    }

    @Test func advanceToADateOrInstantAndPastDeadlinesReturnAtOnce() async throws {
        let start = Date(timeIntervalSince1970: 1_000)
        let testClock = TestClock(start: start)
        await testClock.advance(to: start.addingTimeInterval(90))
        #expect(testClock.now == start.addingTimeInterval(90))
        await testClock.advance(to: Clock.Instant(offset: .seconds(30)))  // already past: no-op
        #expect(testClock.now == start.addingTimeInterval(90))
        try await testClock.clock.sleep(until: Clock.Instant(offset: .seconds(10)))  // past: returns
        #expect(testClock.clock.now == testClock.now)
        #expect(testClock.description.contains("sleepers: 0"))
    }

    /// TestClock is the public `Clock(_:wallTimeAtStart:)` over a `Swift.Clock` of its own, as a
    /// user's clock would be: one clock for the test clock's life, whose instants are the
    /// test clock's, however late it is read or injected.
    @Test func itsClockIsThePublicWrapperWithTheTestClocksInstants() async throws {
        let testClock = TestClock()
        await testClock.advance(by: .seconds(5))
        try await withInjected(testClock.clock) {
            #expect(Clock.current.instant == testClock.instant)
            #expect(Clock.current.instant == Clock.Instant(offset: .seconds(5)))
            #expect(Clock.current.description.hasPrefix("Clock(TestClock(now: "))
            let deadline = Clock.current.instant.advanced(by: .seconds(10))
            let sleeper = Task { try await Clock.current.sleep(until: deadline) }
            try await testClock.waitForSleepers()
            await testClock.advance(to: deadline)
            try await sleeper.value
            #expect(Clock.current.now == testClock.start.addingTimeInterval(15))
        }
    }

    @Test func manyTasksSleepingAtOnce() async throws {
        let testClock = TestClock()
        let woken = Recorder()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask {
                    try await testClock.clock.sleep(for: .milliseconds(index % 20 + 1))
                    woken.append("\(index)")
                }
            }
            await waitUntil { testClock.sleepers == 200 }
            await testClock.advance(by: .milliseconds(10))
            await testClock.advance(by: .milliseconds(10))
            try await group.waitForAll()
        }
        #expect(woken.values.count == 200)
    }
}

/// Polls until `condition` holds (tasks reach their sleep asynchronously).
func waitUntil(_ condition: @Sendable () -> Bool) async {
    for _ in 0..<10_000 where !condition() {
        await Task.yield()
        try? await Task.sleep(for: .microseconds(100))
    }
}

/// Records strings from many tasks.
final class Recorder: Sendable {
    private let storage = Locked<[String]>([])
    func append(_ value: String) { storage.withLock { $0.append(value) } }
    var values: [String] { storage.get() }
}
