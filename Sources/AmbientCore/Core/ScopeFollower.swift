// SPDX-License-Identifier: Apache-2.0

import _AmbientShims

// Why: code that keeps its own per-thread or global state (an older logging library's
// per-thread context, a C library's global) loses it wherever a scope is carried to another
// thread. A follower lets that state travel with the scope, as Kotlin's
// `ThreadContextElement` does for coroutine contexts.

/// State kept outside Ambient that follows a scope onto whatever thread runs it: an
/// `install` that makes it current for a context, and a `restore` that puts back what was
/// there.
///
/// ```swift
/// // A C library's global, and an older logging library's per-thread context.
/// let follower = ScopeFollower(
///     install: { context in
///         let saved = LegacyLog.requestID
///         LegacyLog.requestID = context[RequestID.self]?.value
///         return saved
///     },
///     restore: { saved in LegacyLog.requestID = saved })
/// let registration = follower.register()   // from now on, for the whole process
/// defer { registration.cancel() }
/// ```
///
/// Once registered, Ambient calls `install` wherever it makes a context current on a thread
/// for a synchronous body — a synchronous ``withInjected(_:operation:)`` scope,
/// ``InjectionContext/run(_:)``, ``InjectionContext/bind(_:)-b82v``'s closures, and what is
/// built on them (`CarryingQueue`, `BackgroundQueue`, `MainQueue`) — right after the
/// context is bound, and `restore` with what `install` returned when the body returns or
/// throws. Followers are installed in the order registered and restored in the reverse.
///
/// An asynchronous body may resume on another thread after any `await`, so asynchronous
/// scopes and `run` install nothing: state that must follow async code belongs in an ambient
/// value. `install` and `restore` run on the thread that runs the body, every time, so
/// they must be quick, must not throw or block, and must not enter scopes of their own.
/// With no follower registered, a scope pays one load and branch for the feature.
public struct ScopeFollower: Sendable {
    @usableFromInline
    let install: @Sendable (InjectionContext) -> any Sendable
    @usableFromInline
    let restore: @Sendable (any Sendable) -> Void

    /// A follower whose `install` makes the state current for a context and returns what it
    /// replaced, which `restore` puts back.
    public init<Saved: Sendable>(
        install: @escaping @Sendable (InjectionContext) -> Saved,
        restore: @escaping @Sendable (Saved) -> Void
    ) {
        self.install = { install($0) }
        self.restore = { restore($0 as! Saved) }
    }

    /// Starts following scopes, process-wide, until the registration is cancelled.
    public func register() -> Registration {
        ScopeFollowers.add(self)
    }

    /// A registered follower: ``cancel()`` stops it.
    public final class Registration: Sendable {
        let id: UInt64

        init(id: UInt64) {
            self.id = id
        }

        /// Stops the follower: scopes bound from now on no longer install it (one already
        /// running still restores it). Safe to call more than once.
        public func cancel() {
            ScopeFollowers.remove(id)
        }
    }
}

/// The registered followers, in registration order.
@usableFromInline
enum ScopeFollowers {
    private struct Entry: Sendable {
        let id: UInt64
        let follower: ScopeFollower
    }

    private struct State: Sendable {
        var nextID: UInt64 = 0
        var entries: [Entry] = []
    }

    private static let state = Locked(State())

    static func add(_ follower: ScopeFollower) -> ScopeFollower.Registration {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            state.entries.append(Entry(id: state.nextID, follower: follower))
            return state.nextID
        }
        // After the entry is published: a binding that sees the bit finds the follower.
        _ambient_flags_set(RuntimeFlags.followers)
        return ScopeFollower.Registration(id: id)
    }

    static func remove(_ id: UInt64) {
        state.withLock { state in
            state.entries.removeAll { $0.id == id }
            if state.entries.isEmpty { _ambient_flags_clear(RuntimeFlags.followers) }
        }
    }

    /// Whether any follower may be registered: one load, inlined where a context is bound.
    @inlinable
    static var mayBeRegistered: Bool {
        _ambient_flags_load() & RuntimeFlags.followers != 0
    }

    /// Runs `body` with every registered follower installed for `context`, restoring them
    /// in reverse order when it returns.
    @usableFromInline
    static func running<R, Failure: Error>(
        _ context: InjectionContext, _ body: () throws(Failure) -> R
    ) -> Result<R, Failure> {
        let followers = state.withLock { $0.entries.map(\.follower) }
        let saved = followers.map { $0.install(context) }
        defer {
            for (follower, saved) in zip(followers, saved).reversed() { follower.restore(saved) }
        }
        return _capture(body)
    }
}

extension InjectionContext {
    /// `body`'s outcome as a value, with the registered followers installed around it when
    /// there are any: what every synchronous binding of a context runs inside the binding.
    @inlinable
    func _followed<R, Failure: Error>(_ body: () throws(Failure) -> R) -> Result<R, Failure> {
        if ScopeFollowers.mayBeRegistered { return ScopeFollowers.running(self, body) }
        return _capture(body)
    }
}
