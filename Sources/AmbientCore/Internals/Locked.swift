// SPDX-License-Identifier: Apache-2.0

// Why: shared mutable state is only ever touched inside its lock.

/// A value behind a ``Lock``: the shared mutable state of the providers (fakes, counters,
/// sinks) and of the test clock.
///
/// ```swift
/// let seen = Locked<[String]>([])
/// seen.withLock { $0.append("x") }
/// ```
package final class Locked<State: Sendable>: @unchecked Sendable {
    // @unchecked: `state` is only read or written inside `withLock`, under `lock`; `State` is
    // `Sendable`, so a value taken out of the lock may go to another thread.
    private let lock = Lock()
    private var state: State

    /// `state`, guarded from here on.
    package init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with exclusive access to the state.
    package func withLock<R, Failure: Error>(_ body: (inout State) throws(Failure) -> R) throws(Failure) -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }

    /// The state, copied out under the lock.
    package func get() -> State {
        withLock { $0 }
    }

    /// Replaces the state.
    package func set(_ newState: State) {
        withLock { $0 = newState }
    }
}
