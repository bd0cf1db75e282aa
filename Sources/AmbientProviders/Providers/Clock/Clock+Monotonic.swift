// SPDX-License-Identifier: Apache-2.0

import AmbientCore

// Why: APIs that want a Swift.Clock (Task.sleep, async algorithms) take the ambient one.

extension Clock {
    /// A ``Clock`` as a `Swift.Clock`, for APIs such as `Task.sleep(for:tolerance:clock:)`.
    public struct Monotonic: Swift.Clock {
        /// The clock this one reads.
        public let clock: Clock

        /// The clock's current ``Clock/instant``.
        public var now: Instant {
            clock.instant
        }

        /// One nanosecond.
        public var minimumResolution: Duration {
            .nanoseconds(1)
        }

        /// Sleeps on the underlying clock (`tolerance` is ignored).
        public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
            try await clock.sleep(until: deadline)
        }
    }
}
