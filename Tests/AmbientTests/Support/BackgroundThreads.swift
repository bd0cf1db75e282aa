// SPDX-License-Identifier: Apache-2.0

import Ambient
import Dispatch
import Foundation

@testable import AmbientCarrying
@testable import AmbientCore
@testable import AmbientProviders

/// Threads of their own that call `body` over and over — readers outside every scope, or
/// spinners keeping the cores busy as a parallel test run does — until `stop()`, which
/// returns once all of them have. Bounded whatever happens: each gives up after 120 s.
///
/// Readers pass a `pause` between batches of 100 calls: they still interleave with every
/// scope the test enters and leaves, without taking whole cores from the rest of a
/// parallel run for the length of a long test.
final class BackgroundThreads: Sendable {
    private let running = Locked(true)
    private let finished = DispatchGroup()

    init(count: Int, pause: Duration? = nil, _ body: @escaping @Sendable () -> Void) {
        for _ in 0..<count {
            finished.enter()  // before the thread starts, so `stop()` always waits for it
            Thread { [running, finished] in
                let deadline = ContinuousClock.now + .seconds(120)
                while running.get(), ContinuousClock.now < deadline {
                    for _ in 0..<100 { body() }
                    if let pause { Thread.sleep(forTimeInterval: pause.timeInterval) }
                }
                finished.leave()
            }.start()
        }
    }

    /// Threads that only burn the CPU: `count` of them, but no more than the machine has
    /// cores. One spinner per core already keeps every core busy, so the code under test
    /// waits for its turn on each one; more would lengthen those waits only by oversubscribing
    /// the cores, and on a small machine would take the CPU time the rest of a parallel test
    /// run needs.
    static func spinning(_ count: Int) -> BackgroundThreads {
        let spinners = min(count, ProcessInfo.processInfo.activeProcessorCount)
        return BackgroundThreads(count: max(1, spinners)) { _ = ContinuousClock.now }
    }

    func stop() {
        running.set(false)
        finished.wait()
    }
}
