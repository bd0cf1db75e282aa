// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: `Timer.scheduledTimer` hands back something to invalidate; this is it, for the live
// queue (a Dispatch timer) and a driven one (a sleeper on the test clock) alike.

extension MainQueue {
    /// What ``MainQueue/scheduledTimer(withTimeInterval:repeats:block:)`` returns:
    /// `Foundation.Timer`'s `invalidate()`, `isValid` and `timeInterval`.
    public final class Timer: Sendable {
        private struct State: Sendable {
            var isValid = true
            var onInvalidate: [@Sendable () -> Void] = []
        }

        /// The interval it was made with, in seconds.
        public let timeInterval: TimeInterval
        private let state = Locked(State())
        /// A timer made to be added later: when it first fires, whether it repeats, and its
        /// block; taken by the one ``MainQueue/add(_:)`` that schedules it.
        private let unscheduled: Locked<Unscheduled?>

        struct Unscheduled: Sendable {
            let fireDate: Date
            let repeats: Bool
            let block: @MainActor @Sendable (Timer) -> Void
        }

        init(timeInterval: TimeInterval) {
            self.timeInterval = timeInterval
            unscheduled = Locked(nil)
        }

        /// `Timer(fire:interval:repeats:block:)`: a timer that waits to be added to a main
        /// queue (``MainQueue/add(_:)``, as legacy code adds a `Timer` to `RunLoop.main`).
        /// Added, it first fires at `date` on the current clock (a `TestClock`'s time in a
        /// test), then every `interval` seconds if it `repeats`, until invalidated.
        ///
        /// ```swift
        /// let heartbeat = MainQueue.Timer(fire: Clock.current.now + 5, interval: 5, repeats: true) { _ in beat() }
        /// MainQueue.current.add(heartbeat)
        /// ```
        public init(
            fire date: Date, interval: TimeInterval, repeats: Bool,
            block: @escaping @MainActor @Sendable (Timer) -> Void
        ) {
            timeInterval = interval
            unscheduled = Locked(Unscheduled(fireDate: date, repeats: repeats, block: block))
        }

        /// `Timer(timeInterval:repeats:block:)`: a timer that waits to be added to a main queue,
        /// first firing `interval` seconds after it was made (on the current clock), then every
        /// `interval` seconds if it `repeats`.
        ///
        /// ```swift
        /// let poll = MainQueue.Timer(timeInterval: 30, repeats: true) { _ in refresh() }
        /// MainQueue.current.add(poll)
        /// ```
        public convenience init(
            timeInterval interval: TimeInterval, repeats: Bool,
            block: @escaping @MainActor @Sendable (Timer) -> Void
        ) {
            self.init(
                fire: Clock.current.now.addingTimeInterval(interval), interval: interval, repeats: repeats, block: block
            )
        }

        /// What the first ``MainQueue/add(_:)`` schedules; `nil` after it, or for a timer
        /// made scheduled.
        func takeUnscheduled() -> Unscheduled? {
            unscheduled.withLock { plan in
                defer { plan = nil }
                return plan
            }
        }

        /// Whether it will still fire: `false` once invalidated, and after a non-repeating
        /// timer has fired.
        public var isValid: Bool {
            state.withLock { $0.isValid }
        }

        /// Stops it: its block is not called again. Safe from any thread, any number of
        /// times.
        public func invalidate() {
            let actions = state.withLock { state -> [@Sendable () -> Void] in
                guard state.isValid else { return [] }
                state.isValid = false
                defer { state.onInvalidate = [] }
                return state.onInvalidate
            }
            for action in actions { action() }
        }

        /// Runs `action` when the timer is invalidated (at once if it already is).
        package func onInvalidate(_ action: @escaping @Sendable () -> Void) {
            let runNow = state.withLock { state -> Bool in
                guard state.isValid else { return true }
                state.onInvalidate.append(action)
                return false
            }
            if runNow { action() }
        }
    }
}
