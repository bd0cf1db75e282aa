// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation
import Testing

// Behaviour tests around blocks of Sources/Ambient/Ambient.docc/TestingTimeDependentCode.md (Tests/Documents/ compiles
// every block as written). Each region from `// doc: name` to `// doc-end` is one block, verbatim.
// Declarations sit inside article-specific types so their names stay unique in the module.

@Suite("Testing Time-Dependent Code article")
struct TimeArticleTests {
    struct Reminder {
        var title: String
        var due: Date
    }

    struct Timeout: Error {}

    func isOverdue(_ reminder: Reminder) -> Bool {
        reminder.due < Clock.current.now  // was: Date()
    }

    func remind(after delay: Duration) async throws -> Date {
        try await Clock.current.sleep(for: delay)  // was: Task.sleep(for:)
        return Clock.current.now
    }

    func measure(_ work: () -> Void) -> Duration {
        let start = Clock.current.instant  // was: ContinuousClock.now
        work()
        return start.duration(to: Clock.current.instant)
    }

    func greeting() -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.component(.hour, from: Clock.current.now) < 12 ? "Good morning" : "Good afternoon"
    }

    // doc: fixed
    @Test func fixedTimeStandsStill() {
        let nineAM = Date(timeIntervalSince1970: 9 * 3_600)  // 1970-01-01 09:00 UTC
        withInjected(Clock.fixed(nineAM)) {
            #expect(greeting() == "Good morning")
            #expect(measure { Thread.sleep(forTimeInterval: 0.01) } == .zero)
        }
    }
    // doc-end

    // doc: settling
    func syncEveryMinute(times: Int, parse: () -> Void) async throws {
        for _ in 0..<times {
            try await Clock.current.sleep(for: .seconds(60))
            parse()  // synchronous work, say 10 ms of decoding
        }
    }

    @Test func fiveSyncsInFiveMinutes() async throws {
        let testClock = TestClock()
        let parsed = Counter()
        let syncing = Task {
            try await withInjected(testClock.clock) {
                try await syncEveryMinute(times: 5) { parsed.increment(spinning: .milliseconds(10)) }
            }
        }
        try await testClock.waitForSleepers()
        await testClock.advance(by: .seconds(300))  // all five, in one call
        #expect(parsed.value == 5)
        try await syncing.value
    }
    // doc-end

    /// A thread-safe count for the settling example; `increment` burns the CPU first.
    final class Counter: @unchecked Sendable {
        // @unchecked: `count` is only touched with `lock` held.
        private let lock = NSLock()
        private var count = 0
        var value: Int { lock.withLock { count } }
        func increment(spinning duration: Duration) {
            let end = ContinuousClock.now + duration
            while ContinuousClock.now < end {}
            lock.withLock { count += 1 }
        }
    }

    // doc: blocking-sleep
    func fetchWithRetries(_ fetch: () -> Data?) throws -> Data? {
        for attempt in 1...3 {
            if let data = fetch() { return data }
            try Clock.current.sleep(for: .seconds(attempt))  // was: Thread.sleep(forTimeInterval:)
        }
        return nil
    }
    // doc-end

    @Test func blockingRetriesRunInstantlyOnAnImmediateClock() async throws {
        let clock = Clock.immediate(start: Date(timeIntervalSince1970: 0))
        let data = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let data = withInjected(clock) { try? fetchWithRetries { nil } }
                continuation.resume(returning: data)
            }
        }
        #expect(data == .some(nil))
        #expect(clock.now == Date(timeIntervalSince1970: 6))
    }

    // doc: with-retries
    func withRetries<T>(_ attempts: Int, _ operation: () async throws -> T) async throws -> T {
        var delay = Duration.seconds(1)
        for _ in 1..<attempts {
            do {
                return try await operation()
            } catch {
                try await Clock.current.sleep(for: delay)  // back off: 1 s, 2 s, 4 s and so on
                delay *= 2
            }
        }
        return try await operation()
    }
    // doc-end

    // doc: immediate
    @Test func retriesBackOffWithoutWaiting() async throws {
        let start = Date(timeIntervalSince1970: 0)
        let clock = Clock.immediate(start: start)
        var failures = 2
        let result = try await withInjected(clock) {
            try await withRetries(5) {
                if failures > 0 {
                    failures -= 1
                    throw Timeout()
                }
                return "done"
            }
        }
        #expect(result == "done")
        #expect(clock.now == start.addingTimeInterval(3))  // slept 1 s + 2 s, instantly
    }
    // doc-end

    // doc: test-clock
    @Test func theReminderFiresAfterAnHour() async throws {
        let testClock = TestClock(start: Date(timeIntervalSince1970: 0))
        let reminder = Task {
            try await withInjected(testClock.clock) { try await remind(after: .seconds(3_600)) }
        }
        try await testClock.waitForSleepers()  // let it reach its sleep

        await testClock.advance(by: .seconds(3_599))
        #expect(testClock.sleepers == 1)  // not yet
        await testClock.advance(by: .seconds(1))
        #expect(try await reminder.value == Date(timeIntervalSince1970: 3_600))
    }
    // doc-end

    // doc: poll
    func poll(every interval: Duration, until isDone: () -> Bool) async throws -> Int {
        var polls = 1
        while !isDone() {
            try await Clock.current.sleep(for: interval)
            polls += 1
        }
        return polls
    }
    // doc-end

    // doc: run
    @Test(.timeLimit(.minutes(1)))
    func pollingStopsOnceTheDeadlineHasPassed() async throws {
        let start = Date(timeIntervalSince1970: 0)
        let testClock = TestClock(start: start)
        let polling = Task {
            try await withInjected(testClock.clock) {
                try await poll(every: .seconds(30)) { Clock.current.now >= start.addingTimeInterval(100) }
            }
        }
        try await testClock.waitForSleepers()

        await testClock.run()  // to each deadline in turn, until nothing sleeps on the clock
        #expect(try await polling.value == 5)  // at 0, 30, 60, 90 and 120 seconds
        #expect(testClock.now == start.addingTimeInterval(120))
    }
    // doc-end

    // doc: cancellation
    @Test func cancellingTheTaskEndsItsSleep() async throws {
        let testClock = TestClock()
        let reminder = Task {
            try await withInjected(testClock.clock) { try await remind(after: .seconds(60)) }
        }
        try await testClock.waitForSleepers()

        reminder.cancel()
        await #expect(throws: CancellationError.self) { try await reminder.value }
        #expect(testClock.sleepers == 0)
    }
    // doc-end

    // doc: generic-clock
    func debounce<C: Swift.Clock>(for quiet: C.Duration, clock: C) async throws {
        try await clock.sleep(for: quiet)
    }
    // doc-end

    @Test func monotonicClockForSwiftClockAPIs() async throws {
        try await withInjected(Clock.immediate(start: Date(timeIntervalSince1970: 0))) {
            // doc: monotonic
            try await Task.sleep(for: .seconds(1), clock: Clock.current.monotonic)
            try await debounce(for: .milliseconds(500), clock: Clock.current.monotonic)
            // doc-end
            #expect(Clock.current.now == Date(timeIntervalSince1970: 1.5))
        }
    }

    @Test func wrappingASwiftClock() {
        let continuous = Clock(ContinuousClock())  // any Swift.Clock measured in Duration
        let suspending = Clock(SuspendingClock(), wallTimeAtStart: Date(timeIntervalSince1970: 0))
        #expect(continuous.now.timeIntervalSinceNow < 1)
        #expect(suspending.now >= Date(timeIntervalSince1970: 0))
    }
}
