// SPDX-License-Identifier: Apache-2.0

import AmbientCore

// Why: monotonic time per clock, so durations measured under a test clock are the test's.

extension Clock {
    /// A monotonic point in time on one ``Clock``: an offset from that clock's origin.
    public struct Instant: InstantProtocol, CustomStringConvertible {
        /// The time since the clock's origin.
        public var offset: Duration

        /// The instant `offset` after the clock's origin.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// This instant moved by `duration`.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other` (negative if `other` is earlier).
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Whether `lhs` is earlier than `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        /// `Instant(+1.5 seconds)`.
        public var description: String {
            "Instant(+\(offset))"
        }
    }

}
