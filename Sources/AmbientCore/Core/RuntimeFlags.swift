// SPDX-License-Identifier: Apache-2.0

import _AmbientShims

// Why: a process that never injects pays one atomic load per read; these flags make that possible.

/// The process-global bits that let ``AmbientValue/current`` skip every lookup in a
/// process that has never injected anything. Stored in C (`_ambient_flags`, whose header
/// defines the bits) so the check is a single acquire load with no lazy-global guard and
/// no platform availability floor. What it buys: the benchmark row "read: never injected
/// (fast path)" against "read: injected elsewhere, unbound here".
@usableFromInline
enum RuntimeFlags {
    /// Set the first time anything is bound to a task or thread, if the runtime's borrowed
    /// read passed its self-check; never cleared (a binding may still be live in some task,
    /// and a stale "yes" only costs one task-local read).
    @usableFromInline static let bound: UInt32 = AMBIENT_FLAG_BOUND
    /// Set while a process-wide scope is active.
    @usableFromInline static let processWide: UInt32 = AMBIENT_FLAG_PROCESS_WIDE
    /// Set once an enabled ``StrictMode`` has been created; never cleared.
    @usableFromInline static let strict: UInt32 = AMBIENT_FLAG_STRICT
    /// Set instead of `bound` when the runtime's borrowed read failed its self-check: reads
    /// use the public `TaskLocal.get()` (see Binding.swift). Never cleared.
    @usableFromInline static let publicRead: UInt32 = AMBIENT_FLAG_PUBLIC_READ
    /// Set while a ``ScopeFollower`` is registered: binding a context then runs the
    /// followers' installs and restores around the body.
    @usableFromInline static let followers: UInt32 = AMBIENT_FLAG_FOLLOWERS
    /// Set when AmbientTesting is loaded (a test program that links it): the one-file port's
    /// reads of an injected value then look for a static's one-time initialiser
    /// (``RunningTest/isLoaded``). Never cleared.
    @usableFromInline static let testing: UInt32 = AMBIENT_FLAG_TESTING

    /// Called before every binding: the first time, publishes the binding's `key`, checks
    /// that the borrowed read works (Binding.swift), then sets `bound` if it does and
    /// `publicRead` if it does not.
    @inlinable
    static func markBound(key: UnsafeRawPointer) {
        if _ambient_flags_load() & (bound | publicRead) == 0 {
            markBoundTheFirstTime(key: key)
        }
    }

    /// The first binding's half of `markBound` (racing threads may each run it: the check
    /// has the same outcome on every thread, and setting the bits is idempotent).
    @usableFromInline
    static func markBoundTheFirstTime(key: UnsafeRawPointer) {
        _ambient_binding_key_store(key)
        let works = Binding.borrowedReadWorks(key: key)
        _ambient_flags_set(works ? bound : publicRead)
    }

    /// Whether reads go through `TaskLocal.get()` because the borrowed read failed its
    /// self-check (for tests and diagnostics).
    static var readsThroughTaskLocalGet: Bool {
        _ambient_flags_load() & publicRead != 0
    }

    /// Makes every read from now on take the fallback path, as a failed self-check would
    /// (tests run it in a child process: it cannot be undone).
    static func useTaskLocalGetForEveryRead() {
        _ambient_binding_key_store(Binding.key)
        _ambient_flags_clear(bound)
        _ambient_flags_set(publicRead)
    }
}
