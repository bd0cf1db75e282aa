// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import AmbientTestClock
import Foundation
import Testing

/// swift-clocks-shaped re-entrant loops: a task sleeps, is woken, does synchronous work,
/// sleeps again. One `advance` (or `run`) must wake it every time, whatever the work costs
/// and however busy the CPUs are.
@Suite("TestClock: woken work settles before time moves", .serialized)
struct TestClockSettlingTests {
    /// How the code under test sleeps on the injected clock.
    enum Route: String, CaseIterable, CustomTestStringConvertible {
        case clockSleep, taskSleepOnMonotonic, wrappedUserClock
        var testDescription: String { rawValue }

        func sleep(for duration: Duration) async throws {
            switch self {
            case .clockSleep: try await Clock.current.sleep(for: duration)
            case .taskSleepOnMonotonic: try await Task.sleep(for: duration, clock: Clock.current.monotonic)
            case .wrappedUserClock:
                // A user's own Swift.Clock over the ambient one, made ambient again.
                let user = Clock(UserClock(base: Clock.current.monotonic))
                try await user.sleep(for: duration)
            }
        }
    }

    /// How the test moves time.
    enum Mover: String, CaseIterable, CustomTestStringConvertible {
        case advance, run
        var testDescription: String { rawValue }
    }

    /// A user's `Swift.Clock` that delegates to another one.
    struct UserClock: Swift.Clock {
        let base: Clock.Monotonic
        var now: Clock.Instant { base.now }
        var minimumResolution: Duration { base.minimumResolution }
        func sleep(until deadline: Clock.Instant, tolerance: Duration?) async throws {
            try await base.sleep(until: deadline, tolerance: tolerance)
        }
    }

    /// Sleeps `sleeps` times for a second, spinning `work` after each wake-up; returns how
    /// many wake-ups the test's one call delivered.
    static func loop(
        sleeps: Int,
        work: Duration,
        route: Route,
        mover: Mover
    ) async throws -> Int {
        let testClock = TestClock()
        let woken = Locked(0)
        let task = Task {
            try await withInjected(testClock.clock) {
                for _ in 0..<sleeps {
                    try await route.sleep(for: .seconds(1))
                    spin(for: work)
                    _ = woken.increment()
                }
            }
        }
        try await testClock.waitForSleepers(timeout: .seconds(120))
        switch mover {
        case .advance: await testClock.advance(by: .seconds(sleeps))
        case .run: await testClock.run()
        }
        let count = woken.get()
        task.cancel()  // a missed wake-up must fail the test, not hang it
        _ = try? await task.value
        return count
    }

    /// Burns the CPU for `duration` of real time: synchronous work such as parsing.
    static func spin(for duration: Duration) {
        guard duration > .zero else { return }
        let end = ContinuousClock.now + duration
        while ContinuousClock.now < end {}
    }

    @Test(arguments: [Duration.zero, .milliseconds(10), .milliseconds(50)], Route.allCases)
    func everyWakeUpIsDeliveredInOneAdvance(work: Duration, route: Route) async throws {
        for mover in Mover.allCases {
            let woken = try await Self.loop(sleeps: 5, work: work, route: route, mover: mover)
            #expect(woken == 5, "\(mover) with \(work) of work after each wake-up, via \(route)")
        }
    }

    @Test(arguments: Route.allCases)
    func everyWakeUpIsDeliveredWithTheCPUsBusy(route: Route) async throws {
        let spinners = BusyCores.hold()
        defer { spinners.stop() }
        for mover in Mover.allCases {
            #expect(try await Self.loop(sleeps: 50, work: .zero, route: route, mover: mover) == 50, "\(mover)")
            #expect(try await Self.loop(sleeps: 5, work: .milliseconds(10), route: route, mover: mover) == 5)
        }
    }

    /// 1,000 repetitions of each route and mover (200 under a sanitizer), with a thread
    /// spinning on each core (`BusyCores`): zero misses.
    @Test(arguments: Route.allCases)
    func stressAThousandLoopsMissNothing(route: Route) async throws {
        let spinners = BusyCores.hold()
        defer { spinners.stop() }
        var misses = 0
        for repetition in 0..<Sanitizers.scaled(1_000) {
            let mover: Mover = repetition.isMultiple(of: 2) ? .advance : .run
            let woken = try await Self.loop(sleeps: 5, work: .zero, route: route, mover: mover)
            misses += 5 - woken
        }
        #expect(misses == 0)
    }

    @Test func childTasksAsyncLetAndActorsSettleToo() async throws {
        actor Tally {
            var count = 0
            func add() { count += 1 }
        }
        let testClock = TestClock()
        let tally = Tally()
        let task = Task {
            try await withInjected(testClock.clock) {
                for _ in 0..<5 {
                    try await Clock.current.sleep(for: .seconds(1))
                    // Work in a child task, an async let, a task group and an unstructured task.
                    async let a: Void = tally.add()
                    await withTaskGroup(of: Void.self) { group in
                        group.addTask { TestClockSettlingTests.spin(for: .milliseconds(2)) }
                        group.addTask { await tally.add() }
                    }
                    await a
                    await Task { await tally.add() }.value
                }
            }
        }
        try await testClock.waitForSleepers(timeout: .seconds(120))
        await testClock.advance(by: .seconds(5))
        #expect(await tally.count == 15)
        task.cancel()
        _ = try? await task.value
    }

    @Test func anUnstructuredTaskStartedByWokenWorkIsWaitedFor() async throws {
        let testClock = TestClock()
        let reached = Locked(0)
        let task = Task {
            try await withInjected(testClock.clock) {
                try await Clock.current.sleep(for: .seconds(1))
                // Legacy style: fire and forget a Task that sleeps on its own.
                Task {
                    TestClockSettlingTests.spin(for: .milliseconds(5))
                    try await Clock.current.sleep(for: .seconds(1))
                    _ = reached.increment()
                }
            }
        }
        try await testClock.waitForSleepers(timeout: .seconds(120))
        await testClock.advance(by: .seconds(2))
        #expect(reached.get() == 1, "the Task started by the woken code slept and was woken in the same call")
        task.cancel()
        _ = try? await task.value
    }

    /// Waits at `gate` off the caller's actor, working for `work` between registering and
    /// suspending, as an operator's `next()` does when it starts its tasks.
    nonisolated static func wait(at gate: AsyncGate, workingFirst work: Duration) async {
        await gate.wait(beforeSuspending: { spin(for: work) })
    }

    /// A `@MainActor` test's `Task { }` leaves the main actor while the test waits for the
    /// sleeper, registers at a gate the woken work opens, and works for 200 ms before it
    /// suspends: the advance waits for it, so it passes the gate at the instant it opened.
    /// (Where the task's hop off the main actor is not counted, the advance moves time to its
    /// end and returns while the task still works, and nothing has passed: every attempt.)
    ///
    /// Up to ten attempts, 50 ms apart: where another `@MainActor` test of the parallel run
    /// waits on its own clock at the instant of the hop, that clock may count the hop instead
    /// (the limitation the TestClock documentation states), and the attempt fails. Three
    /// back-to-back attempts can all fail in a full AddressSanitizer run on busy CPUs; alone,
    /// and with two busy CPUs, the first attempt passes.
    @MainActor @Test func aTaskStillLeavingTheMainActorIsWaitedForBeforeTimeMoves() async throws {
        var attempts: [[String]] = []
        while attempts.count < 10 {
            let passed = try await Self.leaveTheMainActorWhileTheTestWaits()
            if passed == ["passed at 1.0 seconds"] { return }
            attempts.append(passed)
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the task was not waited for in any attempt: \(attempts)")
    }

    /// One attempt of the test above, on the main actor: what passed the gate, and when.
    @MainActor private static func leaveTheMainActorWhileTheTestWaits() async throws -> [String] {
        try await leaveTheActorWhileTheTestWaits()
    }

    /// The same from a test isolated to another actor: a global actor (shared by every test
    /// isolated to it) and an actor of the test's own. The test's `Task { }`s run on that
    /// actor; the receiver leaves it for the gate in place, handed the drain's thread, and
    /// works 200 ms there before it suspends. The drain that runs it was scheduled as the test
    /// left the actor to wait, and is counted: the advance waits for the receiver, which
    /// passes the gate at the instant it opened. (Where that drain is not counted, the
    /// advance moves time on while the receiver still works: every attempt.)
    @SettlingGlobalActor @Test func aTaskLeavingAGlobalActorInPlaceIsWaitedForBeforeTimeMoves() async throws {
        #expect(try await Self.leaveTheActorWhileTheTestWaits() == ["passed at 1.0 seconds"])
    }

    @Test func aTaskLeavingTheTestsOwnActorInPlaceIsWaitedForBeforeTimeMoves() async throws {
        #expect(try await SettlingActor().leaveWhileTheTestWaits() == ["passed at 1.0 seconds"])
    }

    /// One run of these tests, on the caller's actor: what passed the gate, and when.
    static func leaveTheActorWhileTheTestWaits(
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> [String] {
        let testClock = TestClock()
        let gate = AsyncGate()
        let passed = Locked<[String]>([])
        let (receiver, sender) = withInjected(testClock.clock) {
            (
                Task {
                    _ = isolation
                    await Self.wait(at: gate, workingFirst: .milliseconds(200))
                    passed.withLock { $0.append("passed at \(testClock.instant.offset)") }
                },
                Task {
                    _ = isolation
                    try await Clock.current.sleep(for: .seconds(1))
                    gate.open()
                }
            )
        }
        try await testClock.waitForSleepers(timeout: .seconds(120))
        await testClock.advance(by: .seconds(10))
        let seen = passed.get()
        _ = try await sender.value
        await receiver.value
        return seen
    }

    @Test func workThatNeverSettlesIsReportedNotHung() async throws {
        let testClock = TestClock(settleTimeout: .milliseconds(200))
        let reports = Locked<[String]>([])
        let reporter = IssueReporter { message, _ in reports.withLock { $0.append(message) } }
        let stop = Locked(false)
        let task = Task {
            try await withInjected(testClock.clock) {
                try await Clock.current.sleep(for: .seconds(1))
                while !stop.get() { await Task.yield() }  // never suspends for long
            }
        }
        let other = Task(name: "poller") {
            try await withInjected(testClock.clock) { try await Clock.current.sleep(for: .seconds(60)) }
        }
        try await testClock.waitForSleepers(2)
        await withInjected(reporter) { await testClock.advance(by: .seconds(2)) }
        stop.set(true)
        let messages = reports.get()
        #expect(messages.count == 1)
        #expect(messages.first?.contains("advance(by: 2.0 seconds)") == true)
        #expect(messages.first?.contains("still running after 0.2 seconds") == true)
        #expect(messages.first?.contains("task \"poller\" asleep until") == true, "names the pending sleeper")
        #expect(testClock.instant.offset == .seconds(2), "time still moved")
        task.cancel()
        other.cancel()
        _ = try? await task.value
        _ = try? await other.value
    }

    /// A large parallel run on two cores keeps Dispatch's pool busy: each hop of the woken
    /// work waits behind other tests' jobs. That waiting is not the work running, and does
    /// not count against the guard: work that yields five times behind a 50 ms backlog
    /// takes over a second of real time, and settles without a report under a 300 ms
    /// timeout.
    @Test func timeSpentWaitingForAThreadIsNotCounted() async throws {
        let testClock = TestClock(settleTimeout: .milliseconds(300))
        let reports = Locked<[String]>([])
        let reporter = IssueReporter { message, _ in reports.withLock { $0.append(message) } }
        let hops = Locked(0)
        let task = Task {
            try await withInjected(testClock.clock) {
                try await Clock.current.sleep(for: .seconds(1))
                for _ in 0..<5 {
                    await Task.yield()
                    hops.withLock { $0 += 1 }
                }
            }
        }
        try await testClock.waitForSleepers(1)
        let backlog = DispatchBacklog(depth: .milliseconds(50))
        let started = ContinuousClock.now
        await withInjected(reporter) { await testClock.advance(by: .seconds(1)) }
        let took = ContinuousClock.now - started
        backlog.stop()
        #expect(hops.get() == 5, "advance returned once the work had settled")
        #expect(reports.get().isEmpty, "\(reports.get())")
        #expect(took > .milliseconds(300), "the backlog held the work past the timeout (took \(took))")
        try await task.value
    }

    @Test func runReportsItsStepLimitInsteadOfTrapping() async throws {
        let testClock = TestClock()
        let reports = Locked<[String]>([])
        let reporter = IssueReporter { message, location in
            reports.withLock { $0.append("\(location.fileID) \(message)") }
        }
        let forever = Task {
            try await withInjected(testClock.clock) {
                while true { try await Clock.current.sleep(for: .seconds(1)) }
            }
        }
        try await testClock.waitForSleepers(timeout: .seconds(120))
        await withInjected(reporter) { await testClock.run(maximumSteps: 10) }
        #expect(testClock.instant.offset == .seconds(10))
        let messages = reports.get()
        #expect(messages.count == 1)
        #expect(messages.first?.contains("AmbientTestClockTests/TestClockSettlingTests.swift") == true)
        #expect(messages.first?.contains("sleepers still pending after 10 deadlines") == true)
        forever.cancel()
        _ = try? await forever.value
    }
}

/// A global actor some tests are isolated to.
@globalActor actor SettlingGlobalActor {
    static let shared = SettlingGlobalActor()
}

/// A test's own actor: the tasks made in its methods run on it.
actor SettlingActor {
    func leaveWhileTheTestWaits() async throws -> [String] {
        try await TestClockSettlingTests.leaveTheActorWhileTheTestWaits()
    }
}
