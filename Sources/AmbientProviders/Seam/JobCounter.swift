// SPDX-License-Identifier: Apache-2.0

import AmbientCore

// Why: a test clock moves time only when the work it woke has settled, so the runtime's
// global-enqueue hook counts the jobs enqueued where one is injected; ``Clock`` hands its
// backend's counter over without knowing the test clock.

/// What counts the jobs enqueued where a test clock is injected (AmbientTestClock's
/// `WokenWork`): the global-enqueue hook asks the injected ``Clock`` for it.
@usableFromInline
package protocol JobCounter: AnyObject, Sendable {
    /// Counts `job` and runs it on the global executor, on this counter's account.
    /// `startsWork`: whether it counts as work started (its task followed from now).
    func enqueue(_ job: UnownedJob, startsWork: Bool)
}
