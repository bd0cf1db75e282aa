// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Dispatch
import Foundation

// Why: the live main queue is Dispatch's, called as legacy code called it.

/// `DispatchQueue.main` and a Dispatch timer on it.
enum LiveMainQueue {
    /// `DispatchSourceTimer` is thread-safe (Dispatch documents it) but not marked `Sendable`
    /// in swift-corelibs-libdispatch.
    private struct Source: @unchecked Sendable {
        let timer: any DispatchSourceTimer
    }

    static func schedule(
        after delay: Duration, repeating interval: Duration?, timer: MainQueue.Timer?,
        work: @escaping @MainActor @Sendable () -> Void
    ) {
        guard let interval, let timer else {
            DispatchQueue.main.asyncAfter(deadline: .now() + delay.timeInterval) {
                MainActor.assumeIsolated { work() }
            }
            return
        }
        let source = Source(timer: DispatchSource.makeTimerSource(queue: .main))
        source.timer.schedule(deadline: .now() + delay.timeInterval, repeating: interval.timeInterval)
        source.timer.setEventHandler { MainActor.assumeIsolated { work() } }
        timer.onInvalidate { source.timer.cancel() }
        source.timer.resume()
    }
}
