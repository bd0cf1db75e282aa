// SPDX-License-Identifier: Apache-2.0

import Ambient
import Testing

// Why: a report from work the test started on another task, queue, thread or event loop fails that test, not «unknown».

/// Records the issues one test case's traits report (strict mode's live reads, a
/// `TestClock`'s unsettled work) against that test, wherever the report is made.
///
/// Swift Testing knows the running test only in the test's own task tree (`Test.current`
/// is a task-local). A report made there is recorded at once, so `withKnownIssue` in the
/// test's body sees it. A report made anywhere else — a `DispatchQueue` block, a `Thread`,
/// an event loop's callback, a task the test did not start — would be recorded as
/// «unknown»'s: it is held instead, and recorded against the test when one of Ambient's waits
/// returns in the test's task (`BackgroundQueue.finished()`, `TestClock.advance(by:)`,
/// `run()`: inside a `withKnownIssue` around the wait), or else when its body returns. A
/// report made after that is recorded where it is made, as Swift Testing would.
final class TestIssueRecorder: Sendable {
    private let test: Test.ID
    private let held = Locked<(issues: [(Comment, SourceLocation, Issue.Severity)], closed: Bool)>(([], false))

    /// A recorder for `test`'s reports.
    init(for test: Test) {
        self.test = test.id
    }

    /// Records `comment` at `location` against the test (an error unless told otherwise): now
    /// where the test's task tree runs, when its body returns where it does not.
    func record(_ comment: Comment, at location: SourceLocation, severity: Issue.Severity = .error) {
        if Test.current?.id == test {
            Issue.record(comment, severity: severity, sourceLocation: location)
            return
        }
        let recordNow = held.withLock { held in
            if held.closed { return true }
            held.issues.append((comment, location, severity))
            return false
        }
        if recordNow { Issue.record(comment, severity: severity, sourceLocation: location) }
    }

    /// Records the issues held so far, when called from the test's own task (a wait that
    /// returns there): `withKnownIssue` around the wait then sees them. Elsewhere, keeps them.
    @Sendable func deliverHeld() {
        guard Test.current?.id == test else { return }
        let issues = held.withLock { held in
            defer { held.issues = [] }
            return held.issues
        }
        for (comment, location, severity) in issues {
            Issue.record(comment, severity: severity, sourceLocation: location)
        }
    }

    /// Records the held reports against the test; called in the test's task once its body
    /// has returned. Later reports are recorded where they are made.
    func recordHeld() {
        let issues = held.withLock { held in
            held.closed = true
            defer { held.issues = [] }
            return held.issues
        }
        for (comment, location, severity) in issues {
            Issue.record(comment, severity: severity, sourceLocation: location)
        }
    }
}
