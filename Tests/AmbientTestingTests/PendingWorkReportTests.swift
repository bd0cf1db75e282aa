// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientTesting
import Foundation
import Testing
import XCTest

/// A test that ends with background work pending fails, with an issue that names each piece
/// by the line that submitted it and by what it waits for: under the traits and under
/// `InjectingTestCase`.
@Suite("Work left pending when a test ends is reported")
struct PendingWorkReportTests {
    /// Runs `body` as a test scoped by a trait, as Swift Testing would, and expects the issue
    /// the trait records when the body returns.
    private func expectPendingReport(
        containing expected: String, _ body: @escaping @Sendable () async -> Void
    )
        async throws
    {
        let test = try #require(Test.current)
        let trait = InjectionTrait.injecting(Defaults.inMemory())
        await withKnownIssue {
            do {
                try await trait.provideScope(for: test, testCase: Test.Case.current) { await body() }
            } catch {
                Issue.record(error)
            }
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.contains("background work pending") && $0.rawValue.contains(expected)
            }
        }
    }

    @Test func driven() async throws {
        let line = #line + 6
        try await expectPendingReport(
            containing: "PendingWorkReportTests.swift:\(line): CarryingQueue(retry).asyncAfter"
        ) {
            let testClock = TestClock()
            withInjected(BackgroundQueue.driven(by: testClock)) {
                CarryingQueue(label: "retry").asyncAfter(deadline: .now() + 30) {}
            }
            await testClock.advance(by: .seconds(29))  // one second short
        }
    }

    @Test func tracked() async throws {
        let group = DispatchGroup()
        group.enter()
        let line = #line + 5
        try await expectPendingReport(
            containing:
                "PendingWorkReportTests.swift:\(line): CarryingQueue(never).notify, waiting for its DispatchGroup"
        ) {
            withInjected(BackgroundQueue.tracked()) { group.notify(queue: CarryingQueue(label: "never")) {} }
        }
        group.leave()  // after the test's check: the notification's work runs, no harm done
    }

    /// A queue the trait makes fresh for the test (before the test's reporter is current) is
    /// checked too.
    @Test func aQueueInjectedFreshByTheTraitIsChecked() async throws {
        let test = try #require(Test.current)
        let trait = InjectionTrait.injecting(fresh: { BackgroundQueue.tracked() })
        let group = DispatchGroup()
        group.enter()
        await withKnownIssue {
            do {
                try await trait.provideScope(for: test, testCase: Test.Case.current) {
                    group.notify(queue: CarryingQueue(label: "fresh")) {}
                }
            } catch {
                Issue.record(error)
            }
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.contains("CarryingQueue(fresh).notify, waiting for its DispatchGroup")
            }
        }
        group.leave()
    }

    /// A repeating timer still scheduled on a driven main queue when the test ends is reported.
    @Test func aTimerLeftScheduledIsReported() async throws {
        let test = try #require(Test.current)
        let trait = InjectionTrait.injecting(fresh: {
            let testClock = TestClock()
            return (BackgroundQueue.driven(by: testClock), MainQueue.driven(by: testClock))
        })
        await withKnownIssue {
            do {
                try await trait.provideScope(for: test, testCase: Test.Case.current) {
                    MainQueue.current.scheduledTimer(withTimeInterval: 5, repeats: true) { _ in }
                }
            } catch {
                Issue.record(error)
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("background work pending") }
        }
    }

    /// A thread the test started, no tracked queue counting it, still running as the test
    /// ends: reported by the line that made it.
    @Test func aThreadStillRunningIsReported() async throws {
        let stop = Flag()
        let started = Flag()
        let line = #line + 4
        try await expectPendingReport(
            containing: "PendingWorkReportTests.swift:\(line): CarryingThread, running"
        ) {
            CarryingThread {
                started.set()
                while !stop.isSet { usleep(1_000) }
            }.start()
            while !started.isSet { try? await Task.sleep(for: .milliseconds(1)) }
        }
        stop.set()
    }

    /// A thread asleep on the live clock as the test ends: reported as asleep, with the time
    /// it has left.
    @Test func aThreadAsleepIsReported() async throws {
        let thread = Locked<CarryingThread?>(nil)
        try await expectPendingReport(containing: "CarryingThread, a thread asleep in real time") {
            let sleeper = CarryingThread { try? Clock.current.sleep(for: .seconds(30)) }
            thread.withLock { $0 = sleeper }
            sleeper.start()
            while !Self.isAsleep(sleeper) { try? await Task.sleep(for: .milliseconds(1)) }
        }
        thread.get()?.cancel()  // wakes the sleep: the thread ends
    }

    /// Whether the test's thread is in its sleep (its count says so once the sleep has begun).
    private static func isAsleep(_ thread: CarryingThread) -> Bool {
        IssueReporter.current.pendingWork?.pending.contains { $0.contains("asleep") } ?? false
    }

    /// Work put on the live main queue, and a timer left scheduled there, as the test ends.
    @Test func liveMainQueueWorkAndTimersAreReported() async throws {
        let timer = Locked<MainQueue.Timer?>(nil)
        let line = #line + 4
        try await expectPendingReport(
            containing: "PendingWorkReportTests.swift:\(line): MainQueue.asyncAfter, waiting for the main queue"
        ) {
            MainQueue.current.asyncAfter(deadline: .now() + 60) {}
            let repeating = MainQueue.current.scheduledTimer(withTimeInterval: 60, repeats: true) { _ in }
            timer.withLock { $0 = repeating }
        }
        timer.get()?.invalidate()
    }

    @Test func aTimerLeftOnTheLiveMainQueueIsNamed() async throws {
        let timer = Locked<MainQueue.Timer?>(nil)
        try await expectPendingReport(containing: "MainQueue: Timer, repeating, a timer still scheduled") {
            let repeating = MainQueue.current.scheduledTimer(withTimeInterval: 60, repeats: true) { _ in }
            timer.withLock { $0 = repeating }
        }
        timer.get()?.invalidate()
    }

    @Test func aThreadThatEndedAndAnInvalidatedTimerAreNot() async throws {
        let test = try #require(Test.current)
        try await InjectionTrait.injecting(Defaults.inMemory()).provideScope(for: test, testCase: Test.Case.current) {
            let done = Flag()
            CarryingThread { done.set() }.start()
            MainQueue.current.scheduledTimer(withTimeInterval: 60, repeats: true) { _ in }.invalidate()
            while !done.isSet { try? await Task.sleep(for: .milliseconds(1)) }
            // The thread's count ends just after its block: until then it is pending (a count
            // that never ended would leave it pending for good, and the test's end report it).
            let deadline = ContinuousClock.now + .seconds(10)
            while IssueReporter.current.pendingWork?.pending.isEmpty == false, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(1))
            }
        }
    }

    @Test func workThatFinishedIsNotReported() async throws {
        let test = try #require(Test.current)
        try await InjectionTrait.injecting(Defaults.inMemory()).provideScope(for: test, testCase: Test.Case.current) {
            let background = BackgroundQueue.tracked()
            withInjected(background) { CarryingQueue(label: "done").async {} }
            await background.finished()
        }
    }
}

/// An `InjectingTestCase` whose failures, while it runs its test through `runCapturing()`, are
/// kept rather than recorded: the XCTest tests below check what their test's end reports.
class FailureCapturingTestCase: InjectingTestCase {
    private let recorded = ReportLog()
    private nonisolated(unsafe) var capturing = false

    #if canImport(ObjectiveC)
    override func record(_ issue: XCTIssue) {
        guard capturing else { return super.record(issue) }
        recorded.append(issue.compactDescription)
    }
    #else
    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        guard capturing else {
            return super.recordFailure(
                withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
        recorded.append(description)
    }
    #endif

    /// Runs the test (`InjectingTestCase`'s `invokeTest`, its end's check included) and returns
    /// the failures it recorded.
    func runCapturing() -> [String] {
        capturing = true
        super.invokeTest()
        capturing = false
        return recorded.messages
    }
}

/// The same under XCTest: the report fails the test method, caught here to check it.
final class PendingWorkXCTestReportTests: FailureCapturingTestCase {
    static let submittedAt = Locked<Int>(0)

    override func invokeTest() {
        let messages = runCapturing()
        let line = Self.submittedAt.withLock { $0 }
        XCTAssertEqual(messages.count, 1, "\(messages)")
        XCTAssertTrue(
            messages.first?.contains(
                "PendingWorkReportTests.swift:\(line): CarryingQueue(retry).asyncAfter, waiting for the test clock")
                == true,
            "\(messages)")
    }

    func testAnAsyncAfterLeftWaitingForTheTestClockIsReported() {
        let testClock = TestClock()
        Self.submittedAt.withLock { $0 = #line + 2 }
        withInjected(BackgroundQueue.driven(by: testClock)) {
            CarryingQueue(label: "retry").asyncAfter(deadline: .now() + 30) {}
        }
    }
}

/// A thread an XCTest test method started and left running fails that method, by the line that
/// made it.
final class PendingThreadXCTestReportTests: FailureCapturingTestCase {
    private let stop = Flag()
    static let startedAt = Locked<Int>(0)

    override func invokeTest() {
        let messages = runCapturing()
        stop.set()
        let line = Self.startedAt.withLock { $0 }
        XCTAssertEqual(messages.count, 1, "\(messages)")
        XCTAssertTrue(
            messages.first?.contains("PendingWorkReportTests.swift:\(line): CarryingThread, running") == true,
            "\(messages)")
    }

    func testAThreadLeftRunningIsReported() {
        let started = Flag()
        let stop = self.stop
        Self.startedAt.withLock { $0 = #line + 1 }
        CarryingThread {
            started.set()
            while !stop.isSet { usleep(1_000) }
        }.start()
        while !started.isSet { usleep(1_000) }
    }
}

/// A report that background work makes on another thread reaches the test by the time the
/// wait that covered the work returns, so `withKnownIssue` around the wait sees it.
@Suite(.injecting(Defaults.inMemory()))
struct ReportsFromCoveredWorkTests {
    @Test func aReportFromQueueWorkIsDeliveredWhenFinishedReturns() async {
        let background = BackgroundQueue.tracked()
        withInjected(background) {
            CarryingQueue(label: "reporting").async {
                IssueReporter.current.report(
                    "reported on the queue", at: .init(fileID: #fileID, filePath: #filePath, line: #line, column: 1))
            }
        }
        await withKnownIssue {
            await background.finished()
        } matching: { issue in
            issue.comments.contains { $0.rawValue == "reported on the queue" }
        }
    }

    @Test func aReportFromDrivenWorkIsDeliveredWhenAdvanceReturns() async {
        let testClock = TestClock()
        withInjected(BackgroundQueue.driven(by: testClock)) {
            CarryingQueue(label: "later").asyncAfter(deadline: .now() + 5) {
                IssueReporter.current.report(
                    "reported at 5 s", at: .init(fileID: #fileID, filePath: #filePath, line: #line, column: 1))
            }
        }
        await withKnownIssue {
            await testClock.advance(by: .seconds(5))
        } matching: { issue in
            issue.comments.contains { $0.rawValue == "reported at 5 s" }
        }
    }
}

/// A flag set once, read from any thread.
final class Flag: Sendable {
    private let value = Locked(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.get() }
}
