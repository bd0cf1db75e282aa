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

        init(timeInterval: TimeInterval) {
            self.timeInterval = timeInterval
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
        func onInvalidate(_ action: @escaping @Sendable () -> Void) {
            let runNow = state.withLock { state -> Bool in
                guard state.isValid else { return true }
                state.onInvalidate.append(action)
                return false
            }
            if runNow { action() }
        }
    }
}
