// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// Why: a receiver reads the time on every signed request to check an expiry in whole seconds; the kernel's coarse clock tells it for a fraction of a precise read.

/// The system's wall clock, as a receiver of signed values reads it: where the system
/// keeps a coarse clock (Linux's `CLOCK_REALTIME_COARSE`, current to the last timer tick,
/// a few milliseconds), that one — a signature's expiry is in whole seconds, checked with
/// seconds of leeway; elsewhere `Date()`.
enum WallClock {
    /// Seconds since 1970.
    static func secondsSince1970() -> Double {
        #if canImport(Glibc) || canImport(Musl)
        var time = timespec()
        if clock_gettime(CLOCK_REALTIME_COARSE, &time) == 0 {
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
        }
        #endif
        return Date().timeIntervalSince1970
    }
}
