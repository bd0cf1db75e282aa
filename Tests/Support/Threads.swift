// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Dispatch
import Foundation

/// Runs `body` on a new `Thread` and waits for its result.
func onNewThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
    let result = Locked<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        result.set(body())
        done.signal()
    }
    thread.start()
    done.wait()
    return result.get()!
}

/// Runs `body` on a new `Thread` and suspends — never blocking a thread of the concurrency
/// pool — until it returns. For code that blocks, such as the synchronous
/// `withInjectedProcessWide`, which refuses to run inside a task.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: body()) }.start()
    }
}

/// Runs `body` on `queue` asynchronously and waits for its result.
func onQueue<T: Sendable>(_ queue: DispatchQueue, _ body: @escaping @Sendable () -> T) -> T {
    let result = Locked<T?>(nil)
    let group = DispatchGroup()
    queue.async(group: group) { result.set(body()) }
    group.wait()
    return result.get()!
}

extension Locked where State == Int {
    /// Adds one and returns the new count (an occupancy counter's "enter").
    func increment() -> Int {
        withLock { count in
            count += 1
            return count
        }
    }
}
