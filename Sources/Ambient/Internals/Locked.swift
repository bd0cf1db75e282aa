/// A value behind a ``Lock``: the shared mutable state of the providers (fakes, counters,
/// sinks) and of the test clock.
///
/// ```swift
/// let seen = Locked<[String]>([])
/// seen.withLock { $0.append("x") }
/// ```
package final class Locked<State>: @unchecked Sendable {
    // @unchecked: `state` is only read or written inside `withLock`, under `lock`.
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
}
