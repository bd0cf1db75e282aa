// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation
import Testing

@Suite("Clock")
struct ClockTests {
    let epoch = Date(timeIntervalSince1970: 1_000_000)

    @Test func theLiveClockIsTheSystemClock() async throws {
        let before = Date()
        let now = Clock.live.now
        #expect(now >= before && now <= Date())
        let start = Clock.live.instant
        try await Clock.live.sleep(for: .milliseconds(20))
        #expect(start.duration(to: Clock.live.instant) >= .milliseconds(20))
        #expect(Clock.current.description == "Clock.live")
    }

    @Test func aFixedClockStandsStillAndDoesNotWait() async throws {
        let clock = Clock.fixed(epoch)
        let wall = ContinuousClock.now
        try await clock.sleep(for: .seconds(3_600))
        #expect(ContinuousClock.now - wall < .seconds(5))
        #expect(clock.now == epoch)
        #expect(clock.instant == Clock.Instant(offset: .zero))
    }

    @Test func anImmediateClockAdvancesByWhatSleepsAskFor() async throws {
        let clock = Clock.immediate(start: epoch)
        try await withInjected(clock) {
            for attempt in 1...3 {
                try await Clock.current.sleep(for: .seconds(attempt))
            }
            try await Clock.current.sleep(until: Clock.current.instant.advanced(by: .seconds(-1)))  // past: no-op
        }
        #expect(clock.now == epoch.addingTimeInterval(6))
        #expect(clock.instant.offset == .seconds(6))
    }

    @Test func sleepsHonourCancellation() async {
        for clock in [Clock.live, .fixed(epoch), .immediate(start: epoch)] {
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                try await clock.sleep(for: .seconds(10))
            }
            await #expect(throws: CancellationError.self, "\(clock)") { try await task.value }
        }
        let sleeping = Task { try await Clock.live.sleep(for: .seconds(60)) }
        sleeping.cancel()
        await #expect(throws: CancellationError.self) { try await sleeping.value }
    }

    @Test func anyDurationClockCanBeWrapped() async throws {
        let clock = Clock(SuspendingClock(), wallTimeAtStart: epoch)
        try await clock.sleep(for: .milliseconds(10))
        #expect(clock.instant.offset >= .milliseconds(10))
        #expect(clock.now >= epoch.addingTimeInterval(0.01))
        #expect(clock.description == "Clock(SuspendingClock)")
    }

    @Test func theAmbientClockWorksWhereASwiftClockIsExpected() async throws {
        let clock = Clock.immediate(start: epoch)
        try await withInjected(clock) {
            try await Task.sleep(for: .seconds(90), clock: Clock.current.monotonic)
        }
        #expect(clock.now == epoch.addingTimeInterval(90))
        let monotonic = clock.monotonic
        #expect(monotonic.now == clock.instant)
        #expect(monotonic.minimumResolution == .nanoseconds(1))
    }

    @Test func codeReadingTheClockSeesTheInjectedOne() {
        func isOverdue(_ due: Date) -> Bool { due < Clock.current.now }
        let due = epoch.addingTimeInterval(10)
        withInjected(Clock.fixed(epoch)) { #expect(!isOverdue(due)) }
        withInjected(Clock.fixed(epoch.addingTimeInterval(11))) { #expect(isOverdue(due)) }
    }

    @Test func instantsMeasureAndCompare() {
        let start = Clock.Instant(offset: .seconds(1))
        let later = start.advanced(by: .milliseconds(1_500))
        #expect(start < later)
        #expect(start.duration(to: later) == .milliseconds(1_500))
        #expect(later.duration(to: start) == .milliseconds(-1_500))
        #expect("\(start)" == "Instant(+1.0 seconds)")
    }
}
