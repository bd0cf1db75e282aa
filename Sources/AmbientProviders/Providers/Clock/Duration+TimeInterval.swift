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
}
