// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Dispatch
import Foundation

/// Threads of their own that call `body` over and over — readers outside every scope, or
/// spinners keeping the cores busy (`BusyCores`) — until `stop()`, which
/// returns once all of them have. Bounded whatever happens: each gives up after 120 s.
///
/// Readers pass a `pause` between batches of 100 calls: they still interleave with every
/// scope the test enters and leaves, without taking whole cores from the rest of a
/// parallel run for the length of a long test. The pause is at least three times as long as
/// the batch took, so a reader keeps to a quarter of a core in every build: under a sanitizer a
/// batch takes tens of times longer than the pause alone.
final class BackgroundThreads: Sendable {
    private let running = Locked(true)
    private let finished = DispatchGroup()

    init(count: Int, pause: Duration? = nil, _ body: @escaping @Sendable () -> Void) {
        for _ in 0..<count {
            finished.enter()  // before the thread starts, so `stop()` always waits for it
            Thread { [running, finished] in
                let deadline = ContinuousClock.now + .seconds(120)
                while running.get() {
                    let batch = ContinuousClock.now
                    guard batch < deadline else { break }
                    for _ in 0..<100 { body() }
                    if let pause {
                        let wait = max(pause, (ContinuousClock.now - batch) * 3).components
                        Thread.sleep(forTimeInterval: Double(wait.seconds) + Double(wait.attoseconds) / 1e18)
                    }
                }
                finished.leave()
            }.start()
        }
    }

    func stop() {
        running.set(false)
        finished.wait()
    }
}
