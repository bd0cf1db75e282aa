// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import AmbientTestClock
import Foundation
import Testing

/// A 2015-style store, ported by changing the line that makes its queue: every call site
/// below is as legacy code wrote it, with no `bind`.
final class ReceiptStore: Sendable {
    static let shared = ReceiptStore()

    // was: private let queue = DispatchQueue(label: "receipts")
    private let queue = CarryingQueue(label: "receipts")
    // was: private let index = DispatchQueue(label: "index", attributes: .concurrent)
    private let index = CarryingQueue(label: "index", attributes: .concurrent)

    func save(_ receipt: String) {
        queue.async {
            Defaults.current.set(receipt, forKey: "last")
            // Work that sends more work on: its scope goes too.
            self.index.async(flags: .barrier) {
                Defaults.current.set(Defaults.current.integer(forKey: "count") + 1, forKey: "count")
            }
        }
    }

    func remindLater() {
        queue.asyncAfter(deadline: .now() + 30) { Defaults.current.set(true, forKey: "reminded") }
    }

    func last() -> String? {
        queue.sync { Defaults.current.string(forKey: "last") }
    }
}

@Suite("Background queues carry the submitter's scope")
struct BackgroundQueueTests {
    static func makeClock() -> TestClock { TestClock(settleTimeout: .seconds(120)) }

    @Test func workSubmittedInAScopeSeesItsValuesAndATrackedQueueWaitsForAllOfIt() async {
        let background = BackgroundQueue.tracked()
        let defaults = Defaults.inMemory()
        withInjected(background, defaults) {
            ReceiptStore.shared.save("r1")
            ReceiptStore.shared.save("r2")
        }
        await background.finished()
        #expect(background.unfinished == 0)
        #expect(defaults.integer(forKey: "count") == 2)  // the work each save sent on, too
        #expect(["r1", "r2"].contains(defaults.string(forKey: "last") ?? ""))
        #expect(withInjected(defaults) { ReceiptStore.shared.last() } == defaults.string(forKey: "last"))
    }

    @Test func outsideAnyScopeTheWorkRunsAsDispatchRunsIt() async {
        let queue = CarryingQueue(label: "plain")
        let seen = Locked<Int?>(nil)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            queue.async {
                seen.withLock { $0 = Number.current.value }
                done.resume()
            }
        }
        #expect(seen.withLock { $0 } == Number.defaultValue.value)
    }

    @Test func theGlobalQueueAndConcurrentPerformCarryTheScope() async {
        let background = BackgroundQueue.tracked()
        let seen = Locked<[Int]>([])
        withInjected(background, Number(value: 7)) {
            BackgroundQueue.current.async(qos: .utility) { seen.withLock { $0.append(Number.current.value) } }
            BackgroundQueue.current.concurrentPerform(iterations: 8) { _ in
                seen.withLock { $0.append(Number.current.value) }
            }
        }
        await background.finished()
        #expect(seen.withLock { $0 } == Array(repeating: 7, count: 9))
    }

    @Test func aGroupIsLeftOnceTheWorkHasRun() {
        let group = DispatchGroup()
        let queue = CarryingQueue(label: "grouped", attributes: .concurrent)
        let seen = Locked<[Int]>([])
        withInjected(Number(value: 3)) {
            for _ in 0..<4 { queue.async(group: group) { seen.withLock { $0.append(Number.current.value) } } }
        }
        #expect(group.wait(timeout: .now() + 60) == .success)
        #expect(seen.withLock { $0 } == [3, 3, 3, 3])
    }

    @Test func aDrivenQueueRunsEverythingInOneOrderAndAdvanceRunsWhatIsDue() async {
        let testClock = Self.makeClock()
        let background = BackgroundQueue.driven(by: testClock)
        let log = Locked<[String]>([])
        let first = CarryingQueue(label: "first", attributes: .concurrent)
        let second = CarryingQueue(label: "second")
        withInjected(background) {
            for index in 0..<5 {
                first.async { log.withLock { $0.append("a\(index)") } }
                second.async { log.withLock { $0.append("b\(index)") } }
            }
            second.asyncAfter(deadline: .now() + 5) { log.withLock { $0.append("5s") } }
            first.asyncAfter(deadline: .now() + 2) { log.withLock { $0.append("2s") } }
            first.asyncAfter(deadline: .now() + 2) { log.withLock { $0.append("2s again") } }
        }
        await background.finished()
        #expect(log.withLock { $0 } == (0..<5).flatMap { ["a\($0)", "b\($0)"] })
        await testClock.advance(by: .seconds(4))
        #expect(log.withLock { Array($0.suffix(2)) } == ["2s", "2s again"])
        await testClock.advance(by: .seconds(1))  // returns once the 5-second work has run
        #expect(log.withLock { $0.last } == "5s")
    }

    @Test func aDrivenRetryRunsWhenTheTestClockGetsThere() async {
        let testClock = Self.makeClock()
        let defaults = Defaults.inMemory()
        withInjected(BackgroundQueue.driven(by: testClock), defaults) { ReceiptStore.shared.remindLater() }
        await testClock.advance(by: .seconds(29))
        #expect(!defaults.bool(forKey: "reminded"))
        await testClock.advance(by: .seconds(1))
        #expect(defaults.bool(forKey: "reminded"))
    }

    @Test func syncFromDrivenWorkRunsInPlaceAndSyncFromOutsideWaitsForEarlierWork() async {
        let testClock = Self.makeClock()
        let background = BackgroundQueue.driven(by: testClock)
        let queue = CarryingQueue(label: "serial")
        let other = CarryingQueue(label: "other")
        let log = Locked<[String]>([])
        let result = withInjected(background) {
            queue.async {
                log.withLock { $0.append("async") }
                let inner = other.sync { "inner" }  // would wait for itself if queued
                log.withLock { $0.append(inner) }
            }
            return queue.sync { log.withLock { $0.count } }
        }
        #expect(result == 2)
        #expect(log.withLock { $0 } == ["async", "inner"])
    }

    @Test func typedErrorsPassThroughSync() {
        struct Refused: Error {}
        let queue = CarryingQueue(label: "throwing")
        #expect(throws: Refused.self) {
            try queue.sync { () throws(Refused) -> Int in throw Refused() }
        }
    }

    @Test func waitUntilFinishedBlocksUntilTheWorkIsDone() {
        let background = BackgroundQueue.tracked()
        let queue = CarryingQueue(label: "slow")
        let done = Locked(false)
        withInjected(background) {
            queue.async {
                Thread.sleep(forTimeInterval: 0.05)
                done.withLock { $0 = true }
            }
        }
        #expect(background.waitUntilFinished(timeout: .seconds(60)))
        #expect(done.withLock { $0 })
        #expect(BackgroundQueue.live.waitUntilFinished())
        #expect(BackgroundQueue.tracked().waitUntilFinished(timeout: .milliseconds(1)))
    }

    @Test func operationQueueBlocksBarriersAndCarryingOperationsRunInTheAddersScope() async {
        final class Tagging: CarryingOperation, @unchecked Sendable {
            let seen: Locked<[Int]>
            init(_ seen: Locked<[Int]>) { self.seen = seen }
            override func main() { seen.withLock { $0.append(Number.current.value) } }
        }
        let background = BackgroundQueue.tracked()
        let seen = Locked<[Int]>([])
        let queue = CarryingOperationQueue()
        let made = Tagging(seen)  // made outside any scope, added inside one
        withInjected(background, Number(value: 5)) {
            queue.addOperation { seen.withLock { $0.append(Number.current.value) } }
            queue.addBarrierBlock { seen.withLock { $0.append(Number.current.value) } }
            queue.addOperation(made)
            queue.addOperations([Tagging(seen)], waitUntilFinished: false)
        }
        await background.finished()
        #expect(seen.withLock { $0 } == [5, 5, 5, 5])
        queue.addOperations([Tagging(seen)], waitUntilFinished: true)  // outside any scope: the defaults
        #expect(seen.withLock { $0.last } == Number.defaultValue.value)
    }

    @Test func aCarryingThreadRunsInTheScopeThatMadeIt() async {
        let background = BackgroundQueue.tracked()
        let seen = Locked<[Int]>([])
        let thread = withInjected(background, Number(value: 9)) {
            let thread = CarryingThread { seen.withLock { $0.append(Number.current.value) } }
            thread.name = "carried"
            thread.start()
            CarryingThread.detachNewThread { seen.withLock { $0.append(Number.current.value) } }
            return thread
        }
        await background.finished()
        #expect(seen.withLock { $0 } == [9, 9])
        #expect(!thread.isCancelled)
    }

    @Test func strictModeTravelsWithTheWorkAndReportsWhatItReadsLive() async {
        let background = BackgroundQueue.tracked()
        let reported = Locked<[String]>([])
        let strict = StrictMode { type in reported.withLock { $0.append("\(type)") } }
        withInjected(background, strict, Number(value: 1)) {
            CarryingQueue(label: "strict").async {
                _ = Number.current  // injected: fine
                _ = Tag.current  // not injected: reported, on the queue's thread
            }
        }
        await background.finished()
        #expect(reported.withLock { $0 } == ["Tag"])
    }

    @Test func describesItsForm() {
        #expect(BackgroundQueue.live.description == "BackgroundQueue.live")
        #expect(BackgroundQueue.tracked().description == "BackgroundQueue.tracked()")
        #expect(BackgroundQueue.driven(by: TestClock()).description.hasPrefix("BackgroundQueue.driven(by: "))
        #expect(CarryingQueue(label: "x").description == "CarryingQueue(x)")
    }

    /// Parallel tests share the queue objects and each inject their own values: every
    /// submission carries exactly its submitter's scope, on busy CPUs. Sixteen "tests" at
    /// once, each with its own tracked queue and eight tasks of its own.
    ///
    /// Its 2,560 submissions go to Dispatch's default global pool, the one the concurrency
    /// runtime runs every test's tasks on here (Linux). Each costs milliseconds under the
    /// sanitizers, so a flood ten times this size holds every other test's jobs back for
    /// minutes, longer than a `TestClock` waits for the work it woke. There, those jobs keep
    /// the cores busy on their own; in a plain run, where they take microseconds, the test
    /// holds `BusyCores` for its length.
    @Test func parallelTestsSharingQueuesSeeOnlyTheirOwnValues() async {
        let mismatches = Locked(0)
        let busy = Sanitizers.areOn ? nil : BusyCores.hold()
        await withTaskGroup(of: Void.self) { tests in
            for test in 0..<16 {
                tests.addTask {
                    let background = BackgroundQueue.tracked()
                    await withInjected(background) {
                        await withTaskGroup(of: Void.self) { group in
                            for task in 0..<8 {
                                group.addTask {
                                    let mine = test * 1_000 + task
                                    withInjected(Number(value: mine)) {
                                        for _ in 0..<10 {
                                            ReceiptStore.sharedQueue.async {
                                                if Number.current.value != mine { mismatches.withLock { $0 += 1 } }
                                                CarryingQueue.global().async {
                                                    if Number.current.value != mine {
                                                        mismatches.withLock { $0 += 1 }
                                                    }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                    await background.finished()
                    if background.unfinished != 0 { mismatches.withLock { $0 += 1 } }
                }
            }
        }
        busy?.stop()
        #expect(mismatches.withLock { $0 } == 0)
    }
}

extension ReceiptStore {
    /// One concurrent queue object every parallel test submits to.
    static let sharedQueue = CarryingQueue(label: "shared", attributes: .concurrent)
}
