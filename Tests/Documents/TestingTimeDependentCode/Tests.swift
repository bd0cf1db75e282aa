// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation
import Testing

// Why: what the article's functions do, where the page only shows them (their blocks are
// compiled in Blocks.swift; these tests call them).

@Suite struct TestingTimeDependentCodeBehaviourTests {
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

    @Test func theMonotonicClockServesSwiftClockAPIs() async throws {
        try await withInjected(Clock.immediate(start: Date(timeIntervalSince1970: 0))) {
            try await Task.sleep(for: .seconds(1), clock: Clock.current.monotonic)
            try await debounce(for: .milliseconds(500), clock: Clock.current.monotonic)
            #expect(Clock.current.now == Date(timeIntervalSince1970: 1.5))
        }
    }

    @Test func aWrappedSwiftClockStartsWhereItIsTold() {
        let continuous = Clock(ContinuousClock())
        let suspending = Clock(SuspendingClock(), wallTimeAtStart: Date(timeIntervalSince1970: 0))
        #expect(continuous.now.timeIntervalSinceNow < 1)
        #expect(suspending.now >= Date(timeIntervalSince1970: 0))
    }
}
