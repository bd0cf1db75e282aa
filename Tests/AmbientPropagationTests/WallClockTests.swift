// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation
import Testing

// @testable: the wall clock a signature's age is read from is internal to AmbientPropagation.
@testable import AmbientPropagation

/// The clock a receiver of signed values reads by default: the system's wall clock, read
/// coarsely where the system offers it, never more than a tick from `Date()`.
@Suite("WallClock: the system's time, coarsely")
struct WallClockTests {
    @Test func readsWhatDateReadsToWithinATick() {
        for _ in 0..<1_000 {
            let before = Date().timeIntervalSince1970
            let read = WallClock.secondsSince1970()
            let after = Date().timeIntervalSince1970
            // A coarse clock lags by up to one timer tick (1–10 ms) and never runs ahead.
            #expect(read <= after + 0.001 && read >= before - 0.05, "\(before) \(read) \(after)")
        }
    }
}
