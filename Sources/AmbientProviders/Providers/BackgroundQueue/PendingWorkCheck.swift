// SPDX-License-Identifier: Apache-2.0

import AmbientCore

// Why: work a test left pending is a test that passes today and fails tomorrow; the test
// frameworks' integrations report it when the test ends.

/// The tracked and driven background queues made during one test, asked when the test ends
/// what they still have pending. AmbientTesting's traits and `InjectingTestCase` make one per
/// test and hand it to their ``IssueReporter``; a queue made where that reporter is current
/// registers itself.
package final class PendingWorkCheck: Sendable {
    private let watched = Locked<[BackgroundWork]>([])

    package init() {}

    /// Watches `work` until the test ends.
    func watch(_ work: BackgroundWork) {
        watched.withLock { $0.append(work) }
    }

    /// The report of the work still pending, or `nil` when there is none: each piece by
    /// where it was submitted and what it waits for. Stops watching.
    package func report() -> String? {
        let watched = self.watched.withLock { watched in
            defer { watched = [] }
            return watched
        }
        let lines = watched.flatMap { $0.pendingWork() }
        guard !lines.isEmpty else { return nil }
        return "The test ended with \(lines.count) piece(s) of background work pending; wait for them "
            + "(BackgroundQueue.finished(), TestClock.advance(by:) or run()) or cancel them before the test ends:\n"
            + lines.map { "- " + $0 }.joined(separator: "\n")
    }
}
