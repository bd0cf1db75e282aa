// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import AmbientTestClock
import Foundation
import Testing

// Two checks use AmbientProviders' `package` declarations, which no public API shows: the
// rounding of test-clock time to Dispatch's nanoseconds, and the lines a report would list
// as pending.

/// The one rule every wait keeps: when `advance`, `run` or `finished()` returns, the work due
/// by then has run, and so has everything that work submitted: through groups, operations,
/// work items, threads and the main queue. Each loop runs the shape many times, since a late
/// result shows up as a rare miss, never as a steady one.
@Suite("When a wait returns, the work it covers is done")
struct WaitingRuleTests {
    static func makeClock() -> TestClock { TestClock(settleTimeout: .seconds(120)) }

    // MARK: Time that adds up

    @Test func doubleSecondsThatAddUpToADeadlineReachIt() async throws {
        let testClock = Self.makeClock()
        let log = Locked<[String]>([])
        withInjected(BackgroundQueue.driven(by: testClock), MainQueue.driven(by: testClock)) {
            CarryingQueue(label: "dispatch").asyncAfter(deadline: .now() + 3) { log.withLock { $0.append("3") } }
            MainQueue.current.asyncAfter(deadline: .now() + .milliseconds(5_000)) {
                log.withLock { $0.append("5") }
            }
        }
        let sleeper = Task {
            try await withInjected(testClock.clock) {
                try await Clock.current.sleep(for: .seconds(TimeInterval(6)))
                log.withLock { $0.append("6") }
            }
        }
        try await testClock.waitForSleepers(3)
        await testClock.advance(by: .seconds(2.9))
        await testClock.advance(by: .seconds(0.1))  // 2.899999999999999872 + 0.1 = 3 exactly
        #expect(log.withLock { $0 } == ["3"])
        await testClock.advance(by: .seconds(1.9))
        await testClock.advance(by: .seconds(0.1))
        #expect(log.withLock { $0 } == ["3", "5"])
        for _ in 0..<10 { await testClock.advance(by: .seconds(0.1)) }  // ten tenths: one second
        try await sleeper.value
        #expect(log.withLock { $0 } == ["3", "5", "6"])
        #expect(testClock.instant.offset == .seconds(6))
    }

    @Test func roundingToNanosecondsKeepsWholeNanosecondsAndRoundsTheRest() {
        #expect(Duration.seconds(2.9).roundedToNanoseconds == .nanoseconds(2_900_000_000))
        #expect(Duration.nanoseconds(7).roundedToNanoseconds == .nanoseconds(7))
        #expect((Duration.nanoseconds(7) + .seconds(4e-10)).roundedToNanoseconds == .nanoseconds(7))
        #expect((Duration.nanoseconds(7) + .seconds(6e-10)).roundedToNanoseconds == .nanoseconds(8))
        #expect(Duration.seconds(-2.9).roundedToNanoseconds == .nanoseconds(-2_900_000_000))
    }

    // MARK: Group notifications

    @Test func aGroupNotificationIsCarriedAndFinishedWaitsForIt() async {
        for round in 0..<200 {
            let background = BackgroundQueue.tracked()
            let seen = Locked<[Int]>([])
            let queue = CarryingQueue(label: "fetch", attributes: .concurrent)
            withInjected(background, Number(value: round)) {
                let group = DispatchGroup()
                for _ in 0..<3 { queue.async(group: group) { seen.withLock { $0.append(Number.current.value) } } }
                group.notify(queue: queue) { seen.withLock { $0.append(-Number.current.value) } }
            }
            await background.finished()
            #expect(seen.withLock { $0 } == [round, round, round, -round])
        }
    }

    /// A chain of every kind of hop: a retry on a serial queue, fetches in a group on the
    /// global queue, `group.notify` back to the serial queue, the result on the main queue.
    @Test func aResultChainedThroughAGroupAndTheMainQueueHasArrivedWhenAdvanceReturns() async {
        let busy = Sanitizers.areOn ? nil : BusyCores.hold()
        defer { busy?.stop() }
        let late = Locked(0)
        for _ in 0..<150 {
            let testClock = Self.makeClock()
            let result = Locked<String?>(nil)
            let serial = CarryingQueue(label: "sync")
            withInjected(BackgroundQueue.driven(by: testClock), MainQueue.driven(by: testClock)) {
                serial.asyncAfter(deadline: .now() + 5) {
                    let group = DispatchGroup()
                    for _ in 0..<2 { BackgroundQueue.current.async(group: group) { _ = Number.current } }
                    group.notify(queue: serial) {
                        MainQueue.current.async { result.withLock { $0 = "success" } }
                    }
                }
            }
            await testClock.advance(by: .seconds(5))
            if result.withLock({ $0 }) != "success" { late.withLock { $0 += 1 } }
        }
        #expect(late.withLock { $0 } == 0)
    }

    @Test func aNotificationForTheMainQueueRunsOnTheMainActorInTheCallersScope() async {
        let background = BackgroundQueue.tracked()
        let seen = Locked<[Int]>([])
        withInjected(background, Number(value: 4)) {
            let group = DispatchGroup()
            CarryingQueue.global().async(group: group) { seen.withLock { $0.append(Number.current.value) } }
            group.notify(queue: MainQueue.current) {
                MainActor.assertIsolated()
                seen.withLock { $0.append(Number.current.value) }
            }
        }
        await background.finished()
        #expect(seen.withLock { $0 } == [4, 4])
    }

    @Test func aGroupLeftByHandDeliversItsNotificationWithinTheAdvance() async {
        let testClock = Self.makeClock()
        let seen = Locked<[String]>([])
        let queue = CarryingQueue(label: "manual")
        withInjected(BackgroundQueue.driven(by: testClock)) {
            let group = DispatchGroup()
            group.enter()
            queue.asyncAfter(deadline: .now() + 1) {
                seen.withLock { $0.append("work") }
                group.leave()  // by hand, as legacy code around a callback does
            }
            group.notify(queue: queue) { seen.withLock { $0.append("notified") } }
        }
        await testClock.advance(by: .seconds(1))
        #expect(seen.withLock { $0 } == ["work", "notified"])
    }

    // MARK: The main queue

    @Test func finishedWaitsForMainQueueWorkTheBackgroundWorkSent() async {
        let missing = Locked(0)
        for _ in 0..<200 {
            let background = BackgroundQueue.tracked()
            let arrived = Locked(false)
            withInjected(background) {
                CarryingQueue.global().async {
                    MainQueue.current.async { arrived.withLock { $0 = true } }
                }
            }
            await background.finished()
            if !arrived.withLock({ $0 }) { missing.withLock { $0 += 1 } }
        }
        #expect(missing.withLock { $0 } == 0)
    }

    // MARK: Operations and work items

    @Test func blockOperationsAreCarriedWithTheirDependenciesAndCompletionBlocks() async {
        let background = BackgroundQueue.tracked()
        let log = Locked<[String]>([])
        let queue = CarryingOperationQueue()
        withInjected(background, Number(value: 8)) {
            let fetch = BlockOperation { log.withLock { $0.append("fetch \(Number.current.value)") } }
            let parse = BlockOperation { log.withLock { $0.append("parse \(Number.current.value)") } }
            parse.addDependency(fetch)
            parse.completionBlock = { log.withLock { $0.append("parsed \(Number.current.value)") } }
            let skipped = BlockOperation { log.withLock { $0.append("cancelled, never runs") } }
            skipped.cancel()
            let after = BlockOperation { log.withLock { $0.append("after the cancelled one") } }
            after.addDependency(skipped)
            queue.addOperations([parse, fetch, skipped, after], waitUntilFinished: false)
        }
        await background.finished()
        let lines = log.withLock { $0 }
        #expect(lines.filter { $0 == "fetch 8" || $0 == "parse 8" } == ["fetch 8", "parse 8"])
        #expect(Set(lines) == ["fetch 8", "parse 8", "parsed 8", "after the cancelled one"])
    }

    @Test func aDrivenOperationHasRunWhenAdvanceReturns() async {
        let testClock = Self.makeClock()
        let log = Locked<[String]>([])
        let operations = CarryingOperationQueue()
        withInjected(BackgroundQueue.driven(by: testClock)) {
            CarryingQueue(label: "timer").asyncAfter(deadline: .now() + 2) {
                let first = BlockOperation { log.withLock { $0.append("first") } }
                let second = BlockOperation { log.withLock { $0.append("second") } }
                second.addDependency(first)
                operations.addOperations([second, first], waitUntilFinished: false)
            }
        }
        await testClock.advance(by: .seconds(2))
        #expect(log.withLock { $0 } == ["first", "second"])
    }

    @Test func aWorkItemIsCarriedAndACancelledOneNeverRuns() async {
        let testClock = Self.makeClock()
        let seen = Locked<[Int]>([])
        let queue = CarryingQueue(label: "items")
        let (item, debounced) = withInjected(Number(value: 6), BackgroundQueue.driven(by: testClock)) {
            let item = DispatchWorkItem { seen.withLock { $0.append(Number.current.value) } }
            queue.async(execute: item)
            let debounced = DispatchWorkItem { seen.withLock { $0.append(-1) } }
            queue.asyncAfter(deadline: .now() + 1, execute: debounced)
            return (item, debounced)
        }
        item.wait()
        debounced.cancel()
        await testClock.advance(by: .seconds(1))
        debounced.wait()  // a cancelled item is released when its turn comes, as with Dispatch
        #expect(seen.withLock { $0 } == [6])
    }

    // MARK: Carrying threads

    @Test func cancelWakesACarryingThreadsSleepOnTheTestClock() async throws {
        let testClock = Self.makeClock()
        let background = BackgroundQueue.tracked()
        let outcome = Locked<String?>(nil)
        let thread = withInjected(background, testClock.clock) {
            let thread = CarryingThread { thread in
                do {
                    try Clock.current.sleep(for: .seconds(3_600))
                    outcome.withLock { $0 = "slept" }
                } catch {
                    outcome.withLock { $0 = "\(type(of: error)), cancelled: \(thread.isCancelled)" }
                }
            }
            thread.start()
            return thread
        }
        try await testClock.waitForSleepers()
        thread.cancel()
        await background.finished()
        #expect(outcome.withLock { $0 } == "CancellationError, cancelled: true")
        #expect(testClock.sleepers == 0)
    }

    @Test func cancelWakesACarryingThreadsLiveSleep() async {
        let background = BackgroundQueue.tracked()
        let outcome = Locked<String?>(nil)
        let thread = withInjected(background) {
            let thread = CarryingThread {
                do {
                    try Clock.current.sleep(for: .seconds(3_600))
                    outcome.withLock { $0 = "slept an hour" }
                } catch {
                    outcome.withLock { $0 = "\(type(of: error))" }
                }
            }
            thread.start()
            return thread
        }
        thread.cancel()
        await background.finished()
        #expect(outcome.withLock { $0 } == "CancellationError")
    }

    /// A watchdog thread polling the test clock, on a driven queue: each `advance` returns once
    /// the thread has run its poll and is asleep again, with no `waitForSleepers` between.
    @Test func aDrivenWatchdogThreadPollsOncePerDeadline() async {
        let busy = Sanitizers.areOn ? nil : BusyCores.hold()
        defer { busy?.stop() }
        let testClock = Self.makeClock()
        let background = BackgroundQueue.driven(by: testClock)
        let polls = Locked(0)
        let watchdog = withInjected(background, testClock.clock) {
            let watchdog = CarryingThread { thread in
                while !thread.isCancelled {
                    do { try Clock.current.sleep(for: .seconds(10)) } catch { return }
                    polls.withLock { $0 += 1 }
                }
            }
            watchdog.start()
            return watchdog
        }
        for expected in 1...50 {
            await testClock.advance(by: .seconds(10))
            #expect(polls.withLock { $0 } == expected)
        }
        watchdog.cancel()
        await background.finished()
        #expect(polls.withLock { $0 } == 50)
    }

    @Test func finishedSaysAtOnceThatWorkAsleepOnTheTestClockNeedsTheClockMoved() async throws {
        let testClock = Self.makeClock()
        let background = BackgroundQueue.tracked()
        let reports = Reports()
        let line = #line + 2
        withInjected(background, testClock.clock) {
            CarryingThread { try? Clock.current.sleep(for: .seconds(60)) }.start()
        }
        try await testClock.waitForSleepers()
        // A timeout far longer than the test: only the immediate report lets this return.
        await withInjected(reports.reporter) { await background.finished(timeout: .seconds(3_600)) }
        let message = try #require(reports.messages.first)
        #expect(message.contains("cannot finish until the test clock moves"))
        #expect(
            message.contains(
                "WaitingRuleTests.swift:\(line): CarryingThread, a thread asleep on the test clock until +60.000 s"))
        await testClock.advance(by: .seconds(60))
        await background.finished()
        #expect(reports.messages.count == 1)
    }

    @Test func aTimedOutWaitNamesEachPendingPieceAndWhatItWaitsFor() async {
        let testClock = Self.makeClock()
        let background = BackgroundQueue.driven(by: testClock)
        let reports = Reports()
        let group = DispatchGroup()
        group.enter()  // never left
        let line = #line + 2
        withInjected(background) {
            group.notify(queue: CarryingQueue(label: "never")) {}
            CarryingQueue(label: "later").asyncAfter(deadline: .now() + 5) {}
        }
        await withInjected(reports.reporter) { await background.finished(timeout: .milliseconds(50)) }
        #expect(reports.messages.count == 1)
        let message = reports.messages.first ?? ""
        #expect(message.contains("1 submission(s) still unfinished after"))
        #expect(
            message.contains(
                "WaitingRuleTests.swift:\(line): CarryingQueue(never).notify, waiting for its DispatchGroup"))
        #expect(
            message.contains(
                "WaitingRuleTests.swift:\(line + 1): CarryingQueue(later).asyncAfter, waiting for the test clock to reach "
                    + "+5.000 s (it is at +0.000 s)"))
        group.leave()
        await testClock.advance(by: .seconds(5))
        await background.finished()
        #expect(background.pendingWorkLines.isEmpty)
    }

    @Test func aPendingWorkCheckListsWhatQueuesMadeUnderItsReporterLeft() async {
        let check = PendingWorkCheck()
        let testClock = Self.makeClock()
        let reporter = IssueReporter(checkingPendingWork: check) { _, _ in }
        let background = withInjected(reporter) { BackgroundQueue.driven(by: testClock) }
        let line = #line + 1
        withInjected(background) { CarryingQueue(label: "retry").asyncAfter(deadline: .now() + 30) {} }
        let report = check.report() ?? ""
        #expect(report.hasPrefix("The test ended with 1 piece(s) of background work pending"))
        #expect(report.contains("WaitingRuleTests.swift:\(line): CarryingQueue(retry).asyncAfter"))
        #expect(check.report() == nil)  // reported once
    }

    /// A queue that registered itself and is then handed in again (a trait injected it) is
    /// listed once.
    @Test func aQueueWatchedTwiceIsListedOnce() {
        let check = PendingWorkCheck()
        let reporter = IssueReporter(checkingPendingWork: check) { _, _ in }
        let background = withInjected(reporter) { BackgroundQueue.driven(by: Self.makeClock()) }
        check.watch(queueOf: InjectionContext().injecting(background))
        withInjected(background) { CarryingQueue(label: "twice").asyncAfter(deadline: .now() + 30) {} }
        #expect(check.report()?.hasPrefix("The test ended with 1 piece(s) of background work pending") == true)
    }
}

extension BackgroundQueue {
    /// What a report would list as pending.
    var pendingWorkLines: [String] { work?.pendingWork() ?? [] }
}
