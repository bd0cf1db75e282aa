// SPDX-License-Identifier: Apache-2.0

import Ambient

// Why: a report made on a thread where Swift Testing cannot tell which test runs is held; a test that waited for that work another way records it where it expects it.

/// Records now, against the running test, the reports Ambient's traits hold for it: those
/// made where Swift Testing cannot tell which test runs (an event loop's callback, a queue,
/// a thread), which are otherwise recorded when one of Ambient's waits returns in the test's
/// task (`TestClock.advance(by:)`, `BackgroundQueue.finished()`), or when the test ends. Call
/// it in the test's task after work that reported elsewhere, waited for another way (a
/// request's response), inside `withKnownIssue` where the reports are expected.
///
/// ```swift
/// @Test(.strict(allowing: [Clock.self], everyThread: true))
/// func theRouteReadsATenant() async throws {
///     try await withKnownIssue {
///         _ = try await app.testing(method: .inMemory).sendRequest(.GET, "report")
///         recordHeldReports()
///     } matching: { $0.comments.contains { $0.rawValue.contains("Tenant.current was read") } }
/// }
/// ```
///
/// Outside a test under one of AmbientTesting's traits, it does nothing.
public func recordHeldReports() {
    IssueReporter.current.pendingWork?.deliverHeldReports()
}
