// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import AmbientTestClock
import Foundation
import Testing

/// Legacy main-queue code, ported by one word: `DispatchQueue.main` → `MainQueue.current`.
@MainActor
final class Banner {
    var isVisible = false
    var log: [String] = []

    func flash() {
        isVisible = true
        MainQueue.current.asyncAfter(deadline: .now() + 5) { self.isVisible = false }
    }
}

@Suite("MainQueue")
@MainActor
struct MainQueueTests {
    /// A clock that waits up to two minutes for woken work, not the default ten seconds:
    /// main-queue work waits for the main thread, which a parallel run under the sanitizers
    /// on two busy cores can leave unscheduled for longer than that. These tests are about
    /// order and settling; the guard's own report is tested in `TestClockSettlingTests`.
    static func makeClock() -> TestClock { TestClock(settleTimeout: .seconds(120)) }

    @Test func advancingFiveSecondsRunsTheFiveSecondWork() async {
        let testClock = Self.makeClock()
        let banner = Banner()
        withInjected(MainQueue.driven(by: testClock)) { banner.flash() }
        await testClock.advance(by: .seconds(4.9))
        #expect(banner.isVisible)
        await testClock.advance(by: .milliseconds(100))
        #expect(!banner.isVisible)  // it has run when advance returns
    }

    @Test func workRunsInDeadlineOrderEachAtItsOwnDeadline() async {
        let testClock = Self.makeClock()
        let banner = Banner()
        withInjected(MainQueue.driven(by: testClock)) {
            let queue = MainQueue.current
            for (name, seconds) in [("5a", 5.0), ("2a", 2.0), ("5b", 5.0), ("2b", 2.0), ("0", 0.0), ("9", 9.0)] {
                queue.asyncAfter(deadline: .now() + seconds) {
                    banner.log.append("\(name)@\(Int(testClock.now.timeIntervalSinceReferenceDate))")
                }
            }
        }
        withInjected(MainQueue.driven(by: testClock)) {
            MainQueue.current.asyncAfter(deadline: .now() + .milliseconds(1500)) { banner.log.append("1.5s") }
            MainQueue.current.asyncAfter(deadline: .now() + DispatchTimeInterval.never) { banner.log.append("never") }
        }
        await testClock.advance(by: .seconds(6))
        #expect(banner.log == ["0@0", "1.5s", "2a@2", "2b@2", "5a@5", "5b@5"])
        await testClock.run()
        #expect(banner.log.last == "9@9")
    }

    @Test func workRunsWithTheValuesOfTheScopeThatScheduledIt() async {
        let testClock = Self.makeClock()
        let banner = Banner()
        let environment = ProcessEnvironment(variables: ["MODE": "scheduled-scope"])
        withInjected(MainQueue.driven(by: testClock), environment) {
            MainQueue.current.asyncAfter(deadline: .now() + .milliseconds(10)) {
                banner.log.append(ProcessEnvironment.current["MODE"] ?? "none")
            }
            MainQueue.current.async { banner.log.append("async:" + (ProcessEnvironment.current["MODE"] ?? "none")) }
        }
        await testClock.advance(by: .seconds(1))
        #expect(banner.log == ["async:scheduled-scope", "scheduled-scope"])
    }

    @Test func aRepeatingTimerFiresEveryIntervalUntilInvalidated() async {
        let testClock = Self.makeClock()
        let banner = Banner()
        let timer = withInjected(MainQueue.driven(by: testClock)) {
            MainQueue.current.scheduledTimer(withTimeInterval: 1, repeats: true) { timer in
                banner.log.append("tick@\(Int(testClock.now.timeIntervalSinceReferenceDate))")
                if banner.log.count == 5 { timer.invalidate() }
            }
        }
        await testClock.advance(by: .seconds(3.5))
        #expect(banner.log == ["tick@1", "tick@2", "tick@3"])
        #expect(timer.isValid)
        await testClock.advance(by: .seconds(10))
        #expect(banner.log.count == 5)
        #expect(!timer.isValid)
        #expect(testClock.sleepers == 0)
    }

    /// `Timer(fire:interval:repeats:block:)` added to a run loop: it fires first at its date
    /// on the current clock, then every interval; added again, it is not scheduled twice.
    @Test func anUnscheduledTimerFiresFromItsDateOnceAdded() async {
        let testClock = Self.makeClock()
        let banner = Banner()
        let timer = withInjected(MainQueue.driven(by: testClock), testClock.clock) {
            let timer = MainQueue.Timer(fire: Clock.current.now + 2, interval: 1, repeats: true) { _ in
                banner.log.append("tick@\(Int(testClock.now.timeIntervalSinceReferenceDate))")
            }
            MainQueue.current.add(timer)
            MainQueue.current.add(timer)
            return timer
        }
        await testClock.advance(by: .seconds(1.5))
        #expect(banner.log.isEmpty)
        await testClock.advance(by: .seconds(2))
        #expect(banner.log == ["tick@2", "tick@3"])
        timer.invalidate()
        await testClock.advance(by: .seconds(5))
        #expect(banner.log == ["tick@2", "tick@3"])
        #expect(testClock.sleepers == 0)
    }

    @Test func aOneShotTimerFiresOnceAndAnInvalidatedOneNever() async {
        let testClock = Self.makeClock()
        let banner = Banner()
        let (once, never) = withInjected(MainQueue.driven(by: testClock)) {
            (
                MainQueue.current.scheduledTimer(withTimeInterval: 2, repeats: false) { timer in
                    banner.log.append("once valid:\(timer.isValid)")
                },
                MainQueue.current.scheduledTimer(withTimeInterval: 1, repeats: false) { _ in banner.log.append("never")
                }
            )
        }
        never.invalidate()
        await testClock.advance(by: .seconds(5))
        #expect(banner.log == ["once valid:true"])
        #expect(!once.isValid && !never.isValid)
        #expect(once.timeInterval == 2)
        #expect(testClock.sleepers == 0)
    }

    @Test func tasksTheWorkStartsHaveSettledWhenAdvanceReturns() async {
        let testClock = Self.makeClock()
        let finished = Locked<[String]>([])
        withInjected(MainQueue.driven(by: testClock)) {
            MainQueue.current.asyncAfter(deadline: .now() + 1) {
                Task.detached {
                    // 10 ms of real work, off the main actor, started by the main-queue work.
                    let start = ContinuousClock.now
                    while ContinuousClock.now - start < .milliseconds(10) {}
                    finished.withLock { $0.append("parsed") }
                }
            }
        }
        await testClock.advance(by: .seconds(1))
        #expect(finished.get() == ["parsed"])
    }

    /// The order and settle guarantees with both cores busy: 300 rounds, each a few pieces
    /// of work at shuffled deadlines (two sharing one) and a repeating timer, one `advance`.
    @Test func theGuaranteesHoldOnBusyCores() async {
        let spinners = BusyCores.hold()
        defer { spinners.stop() }
        var wrong = 0
        for round in 0..<300 {
            let testClock = Self.makeClock()
            let banner = Banner()
            var random = RandomSource.seeded(UInt64(round))
            let deadlines = [1, 2, 3, 3, 4].shuffled(using: &random)
            withInjected(MainQueue.driven(by: testClock)) {
                for seconds in deadlines {
                    MainQueue.current.asyncAfter(deadline: .now() + Double(seconds)) { banner.log.append("\(seconds)") }
                }
                MainQueue.current.scheduledTimer(withTimeInterval: 1.5, repeats: true) { _ in banner.log.append("t") }
            }
            await testClock.advance(by: .seconds(4))
            if banner.log != ["1", "t", "2", "3", "3", "t", "4"] { wrong += 1 }
        }
        #expect(wrong == 0)
    }

    @Test func theLiveQueueIsTheMainQueue() async {
        #expect(MainQueue.current.description == "MainQueue.live")
        let banner = Banner()
        let environment = ProcessEnvironment(variables: ["MODE": "live-scope"])
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            withInjected(environment) {
                MainQueue.current.asyncAfter(deadline: .now() + .milliseconds(20)) {
                    banner.log.append(ProcessEnvironment.current["MODE"] ?? "none")
                    continuation.resume()
                }
            }
        }
        var ticks = 0
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            MainQueue.current.scheduledTimer(withTimeInterval: 0.005, repeats: true) { timer in
                ticks += 1
                if ticks == 3 {
                    timer.invalidate()
                    continuation.resume()
                }
            }
        }
        #expect(banner.log == ["live-scope"])
        #expect(ticks == 3)
    }

    @Test func aMainQueueFollowsTheScopeItIsUsedIn() async {
        let kept = MainQueue.followingCurrent
        let testClock = TestClock()
        let ran = Locked(false)
        withInjected(MainQueue.driven(by: testClock)) {
            kept.asyncAfter(deadline: .now() + 5) { ran.withLock { $0 = true } }
        }
        await testClock.advance(by: .seconds(4))
        #expect(!ran.withLock { $0 })
        await testClock.advance(by: .seconds(1))
        #expect(ran.withLock { $0 })
        #expect(kept.description == "MainQueue.followingCurrent")
    }
}
