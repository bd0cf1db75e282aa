import _AmbientShims

/// The process-global bits that let ``AmbientValue/current`` skip every lookup in a
/// process that has never injected anything. Stored in C (`_ambient_flags`, whose header
/// defines the bits) so the check is a single acquire load with no lazy-global guard and
/// no platform availability floor. What it buys: the benchmark row "read: never injected
/// (fast path)" against "read: injected elsewhere, unbound here".
@usableFromInline
enum RuntimeFlags {
    /// Set the first time anything is bound to a task or thread; never cleared (a binding
    /// may still be live in some task, and a stale "yes" only costs one task-local read).
    @usableFromInline static let bound: UInt32 = AMBIENT_FLAG_BOUND
    /// Set while a process-wide scope is active.
    @usableFromInline static let processWide: UInt32 = AMBIENT_FLAG_PROCESS_WIDE
    /// Set once an enabled ``StrictMode`` has been created; never cleared.
    @usableFromInline static let strict: UInt32 = AMBIENT_FLAG_STRICT

    /// Called before every binding: publishes the binding's `key` (see Binding.swift), then
    /// the flag, once.
    @inlinable
    static func markBound(key: UnsafeRawPointer) {
        if _ambient_flags_load() & bound == 0 {
            _ambient_binding_key_store(key)
            _ambient_flags_set(bound)
        }
    }
}
