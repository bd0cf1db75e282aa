// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation

// Why: a flood of forged headers must not flood the log: reports are rate-limited.

/// Hands rejections on, at most ``maximumReports`` per ``interval``: a flood of forged
/// headers costs the log a few lines a minute, not one a request. The first report after a
/// quiet spell says how many were held back (``PropagationRejection/suppressedBefore``).
///
/// ```swift
/// let report = RejectionReporter(maximumReports: 10, per: .seconds(60)) { rejection in
///     Logger.current.warning("dropped a propagated value", metadata: ["why": "\(rejection)"])
/// }
/// let (context, rejections) = propagated.decodeSkippingInvalid(headers, trusting: trust)
/// rejections.forEach(report.callAsFunction)
/// ```
///
/// Time here is the system's monotonic clock, never `Clock.current`: a propagated value must
/// not be able to reopen the window.
public final class RejectionReporter: Sendable {
    /// The most rejections reported in one ``interval``.
    public let maximumReports: Int
    /// The window the limit applies to.
    public let interval: Duration

    private struct State {
        var windowStart: ContinuousClock.Instant
        var reportedInWindow = 0
        var suppressedSinceReport = 0
        var suppressedInAll = 0
    }

    private let state: Locked<State>
    private let report: @Sendable (PropagationRejection) -> Void

    /// A reporter that calls `report` at most `maximumReports` times per `interval`.
    public init(
        maximumReports: Int = 10, per interval: Duration = .seconds(60),
        report: @escaping @Sendable (PropagationRejection) -> Void
    ) {
        precondition(maximumReports > 0, "RejectionReporter: maximumReports must be positive")
        precondition(interval > .zero, "RejectionReporter: the interval must be positive")
        self.maximumReports = maximumReports
        self.interval = interval
        self.report = report
        self.state = Locked(State(windowStart: ContinuousClock.now))
    }

    /// Reports `rejection`, unless this window's reports are spent: then counts it.
    public func callAsFunction(_ rejection: PropagationRejection) {
        let now = ContinuousClock.now
        let suppressed: Int? = state.withLock { state in
            if now - state.windowStart >= interval {
                state.windowStart = now
                state.reportedInWindow = 0
            }
            guard state.reportedInWindow < maximumReports else {
                state.suppressedSinceReport += 1
                state.suppressedInAll += 1
                return nil
            }
            state.reportedInWindow += 1
            defer { state.suppressedSinceReport = 0 }
            return state.suppressedSinceReport
        }
        guard let suppressed else { return }
        var rejection = rejection
        rejection.suppressedBefore += suppressed
        report(rejection)
    }

    /// How many rejections this reporter has held back since it was made.
    public var suppressedCount: Int {
        state.withLock { $0.suppressedInAll }
    }
}
