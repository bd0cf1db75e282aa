// SPDX-License-Identifier: Apache-2.0

import AmbientTesting
import Foundation

#if ONE_FILE_PORT
import InboxKitShadowed
#else
import InboxKit
#endif

/// A server whose answers belong to one test: its token and messages name the test, so a
/// value that crossed from another test shows.
func serverOf(_ test: Int, latency: TimeInterval = 0, failures: Int = 0) -> Mailbox {
    let attempts = Tally()
    return Mailbox(
        account: { answer in
            let attempt = attempts.increment()
            let result: Result<String, SyncError> =
                attempt <= failures ? .failure(.unavailable) : .success("acct\(test)")
            guard latency > 0 else { return answer(result) }
            // The network's latency, on the test clock: the answer comes back on a global queue.
            CarryingQueue.global().asyncAfter(deadline: .now() + latency) { answer(result) }
        },
        messages: { account, folder in (1...2).map { "\(account)/\(folder)/\($0)" } })
}

/// A thread-safe count.
final class Tally: @unchecked Sendable {
    // @unchecked: `count` is only touched with `lock` held.
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }

    @discardableResult
    func increment() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }
}

/// What the sync's completion received, once.
final class Outcome: @unchecked Sendable {
    // @unchecked: `results` is only touched with `lock` held.
    private let lock = NSLock()
    private var results: [Result<Int, SyncError>] = []
    var all: [Result<Int, SyncError>] { lock.withLock { results } }
    func record(_ result: Result<Int, SyncError>) { lock.withLock { results.append(result) } }
}

/// Everything one sync touches, faked for one test, driven by one test clock.
struct Harness {
    let testClock = TestClock()
    let defaults: Defaults
    let logger = Logger.capturing()
    let outcome = Outcome()
    let mailbox: Mailbox

    init(test: Int, latency: TimeInterval = 0, failures: Int = 0) {
        defaults = Defaults.inMemory(["inbox.token": .string("t\(test)")])
        mailbox = serverOf(test, latency: latency, failures: failures)
    }

    static let folders = ["inbox", "sent", "archive"]

    /// Starts a sync with these fakes, on queues the test clock drives.
    func sync() {
        withInjected(
            BackgroundQueue.driven(by: testClock), MainQueue.driven(by: testClock), defaults, logger, mailbox,
            testClock.clock
        ) {
            InboxSync.shared.sync(folders: Self.folders) { [outcome] in outcome.record($0) }
        }
    }

    var log: [String] { logger.captured.map(\.message) }
    func count(_ message: String) -> Int { log.filter { $0 == message }.count }
}

/// The port's tests: the module's call sites are as legacy code wrote them; only where its
/// queues, thread and timer are declared changed. No test adds an `advance` to get a late
/// result, and none marks a check as a known issue.
@Suite(.injecting(Defaults.inMemory()))
struct InboxSyncTests {
    /// Fifty syncs at once on the one shared `InboxSync`, each with its own server, defaults,
    /// logger and test clock: every hop's log line, write and result is its own test's.
    @Test(arguments: 0..<50)
    func parallelSyncsSeeOnlyTheirOwnFakes(test: Int) async {
        let harness = Harness(test: test)
        harness.sync()
        await harness.testClock.advance(by: .seconds(30))  // the analytics flush is due at 30 s
        #expect(harness.outcome.all == [.success(6)])
        #expect(harness.defaults.integer(forKey: "inbox.indexed") == 6)
        #expect(harness.defaults.string(forKey: "inbox.token") == "acct\(test).next")
        #expect(
            harness.log == [
                "sync: starting from token t\(test)",
                "sync: stored 2 in inbox", "sync: stored 2 in sent", "sync: stored 2 in archive",
                "sync: parsed 3 folders",
                "analytics: flushed sync.indexed",
            ])
        #expect(InboxSync.shared.stored("inbox").allSatisfy { $0.hasPrefix("acct") })
    }

    /// Two failures, retried after 1 and 2 seconds: the third attempt's result has arrived
    /// when the advance that reaches it returns, through the group, the operations and the
    /// main queue, and the heartbeat has beaten once (at 2.5 s).
    @Test func theRetryBacksOffAndItsResultArrivesWithTheAdvance() async {
        let harness = Harness(test: 100, failures: 2)
        harness.sync()
        await harness.testClock.advance(by: .seconds(1))
        #expect(harness.count("sync: attempt 1 failed, retrying in 1 s") == 1)
        #expect(harness.count("sync: attempt 2 failed, retrying in 2 s") == 1)
        #expect(harness.outcome.all.isEmpty)
        await harness.testClock.advance(by: .seconds(1.9))
        await harness.testClock.advance(by: .seconds(0.1))  // 1 + 1.9 + 0.1: the 3-second retry is due
        #expect(harness.outcome.all == [.success(6)])
        #expect(harness.count("heartbeat") == 1)
        #expect(harness.defaults.integer(forKey: "inbox.indexed") == 6)
        await harness.testClock.advance(by: .seconds(30))
        #expect(harness.count("analytics: flushed sync.indexed") == 1)
        #expect(harness.count("heartbeat") == 1)  // invalidated when the sync finished
    }

    /// A server that answers after two minutes: the watchdog thread, polling every 15 s on
    /// the test clock, fails the sync at 60 s, after 24 heartbeats; the late answer finishes
    /// the sync's work, and its result is dropped.
    @Test func theWatchdogFailsASyncThatHearsNothingForAMinute() async {
        let harness = Harness(test: 200, latency: 120)
        harness.sync()
        await harness.testClock.advance(by: .seconds(59))
        #expect(harness.outcome.all.isEmpty)
        #expect(harness.count("heartbeat") == 23)
        await harness.testClock.advance(by: .seconds(1))
        #expect(harness.outcome.all == [.failure(.timedOut)])
        #expect(harness.count("heartbeat") == 24)
        await harness.testClock.advance(by: .seconds(90))  // the late answer at 120 s, its analytics at 150 s
        #expect(harness.outcome.all == [.failure(.timedOut)])
        #expect(harness.count("analytics: flushed sync.indexed") == 1)
        #expect(harness.count("heartbeat") == 24)
    }

    /// The time-driven tests again and again, on busy CPUs (`INBOX_RUNS` sets how many):
    /// every result on time, every time.
    @Test func theTimeDrivenTestsHoldRunAfterRun() async {
        let runs = Int(ProcessInfo.processInfo.environment["INBOX_RUNS"] ?? "") ?? 100
        let late = Tally()
        for run in 0..<runs {
            let retry = Harness(test: 1_000 + run, failures: 2)
            retry.sync()
            await retry.testClock.advance(by: .seconds(3))
            if retry.outcome.all != [.success(6)] || retry.count("heartbeat") != 1 { late.increment() }
            await retry.testClock.advance(by: .seconds(30))
            if retry.count("analytics: flushed sync.indexed") != 1 { late.increment() }

            let stalled = Harness(test: 2_000 + run, latency: 120)
            stalled.sync()
            await stalled.testClock.advance(by: .seconds(60))
            if stalled.outcome.all != [.failure(.timedOut)] || stalled.count("heartbeat") != 24 { late.increment() }
            await stalled.testClock.advance(by: .seconds(90))
            if stalled.count("analytics: flushed sync.indexed") != 1 { late.increment() }
        }
        #expect(late.value == 0, "\(late.value) late result(s) in \(runs) runs")
    }
}
