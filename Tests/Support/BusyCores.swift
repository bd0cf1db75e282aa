// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

/// Every core kept busy for as long as any test holds a lease: one spinner thread per core,
/// shared by all the tests that hold a lease at once, as a parallel test run keeps the cores
/// busy. The code under test then waits for its turn on each core.
///
/// The spinners are shared, not one set per test: a parallel run that starts five such tests
/// together still has one spinner per core. Ten spinners on two cores would keep the cores no
/// busier; they would only take the CPU from the code under test and from the rest of the run,
/// and keep each of those tests, and so themselves, running longer.
///
/// ```swift
/// let busy = BusyCores.hold()
/// defer { busy.stop() }
/// ```
final class BusyCores: Sendable {
    private struct Shared: Sendable {
        var holders = 0
        var spinners: BackgroundThreads?
    }
    private static let shared = Locked(Shared())
    private let held = Locked(true)

    private init() {}

    /// A lease: the spinners start with the first lease and stop with the last.
    static func hold() -> BusyCores {
        shared.withLock { shared in
            shared.holders += 1
            if shared.spinners == nil {
                let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
                shared.spinners = BackgroundThreads(count: cores) { _ = ContinuousClock.now }
            }
        }
        return BusyCores()
    }

    /// Gives the lease back (once; a second call does nothing). The last lease returned stops
    /// the spinners, and returns once they have stopped.
    func stop() {
        let wasHeld = held.withLock { held in
            let was = held
            held = false
            return was
        }
        guard wasHeld else { return }
        let last: BackgroundThreads? = Self.shared.withLock { shared in
            shared.holders -= 1
            guard shared.holders == 0 else { return nil }
            defer { shared.spinners = nil }
            return shared.spinners
        }
        last?.stop()
    }
}
