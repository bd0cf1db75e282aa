// SPDX-License-Identifier: Apache-2.0

import AmbientCore

/// A one-shot gate tasks can wait on.
final class AsyncGate: Sendable {
    private let state = Locked<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// Waits until the gate opens. `beforeSuspending` runs once the waiter is registered and
    /// before the task suspends: an `open()` meanwhile finds the waiter while it still runs.
    func wait(beforeSuspending: () -> Void = {}) async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            beforeSuspending()
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
