// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: Duration and Foundation's seconds meet at every boundary; one conversion, written once.

extension Date {
    /// This date moved by a `Duration`.
    func adding(_ duration: Duration) -> Date {
        addingTimeInterval(duration.timeInterval)
    }
}

extension Duration {
    /// The duration in seconds, as Foundation counts them.
    package var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) * 1e-18
    }

    /// The duration rounded to the nearest nanosecond (halves away from zero): the
    /// resolution of a test clock's time, and of Dispatch's. `Duration.seconds(2.9)` is
    /// 2.899999999999999872 s, so 2.9 s and 0.1 s of `Double` seconds add up to less than
    /// the 3 s that `.now() + 3` schedules for; rounded, they add up to it exactly.
    package var roundedToNanoseconds: Duration {
        let (seconds, attoseconds) = components
        let nanoseconds = (attoseconds + (attoseconds < 0 ? -500_000_000 : 500_000_000)) / 1_000_000_000
        return .seconds(seconds) + .nanoseconds(nanoseconds)
    }
}
