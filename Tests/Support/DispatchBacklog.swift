// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Dispatch
import Foundation

// Why: what a large parallel test run does to Dispatch's global pool, made on purpose.

/// A thread that keeps Dispatch's global queue about `depth` of work deep (1 ms jobs that
/// spin, `depth` worth per core), so that anything else enqueued there waits behind them,
/// until `stop()`; `init` returns once it is that deep. Bounded whatever happens: it gives
/// up after 30 s.
final class DispatchBacklog: Sendable {
    private let running = Locked(true)
    private let outstanding = Locked(0)
    private let finished = DispatchGroup()

    init(depth: Duration) {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let target = Int(depth / .milliseconds(1)) * cores
        let full = DispatchSemaphore(value: 0)
        finished.enter()
        Thread { [running, outstanding, finished] in
            let deadline = ContinuousClock.now + .seconds(30)
            var filled = false
            while running.get(), ContinuousClock.now < deadline {
                guard outstanding.get() < target else {
                    if !filled {
                        filled = true
                        full.signal()
                    }
                    usleep(200)
                    continue
                }
                outstanding.withLock { $0 += 1 }
                DispatchQueue.global().async {
                    let start = ContinuousClock.now
                    while ContinuousClock.now - start < .milliseconds(1) {}
                    outstanding.withLock { $0 -= 1 }
                }
            }
            if !filled { full.signal() }
            finished.leave()
        }.start()
        full.wait()
    }

    /// Stops adding work, and returns once the thread has (what it queued drains by itself).
    func stop() {
        running.set(false)
        finished.wait()
    }
}
