// SPDX-License-Identifier: Apache-2.0

import AmbientCore

// Why: a main queue a test clock drives schedules its work on that clock; ``MainQueue`` hands
// the work over without knowing the clock.

/// The object behind ``MainQueue``'s driven form (AmbientTestClock's `TestMainQueue`).
@usableFromInline
package protocol MainQueueDriver: PendingWorkSource {
    /// `MainQueue.driven(by: <the test clock>)`.
    var description: String { get }

    /// Runs `work` on the main actor once the test clock has moved `delay` past now, and
    /// every `interval` after that while `timer` is valid.
    func schedule(
        after delay: Duration, repeating interval: Duration?, timer: MainQueue.Timer?,
        work: @escaping @MainActor @Sendable () -> Void)
}
