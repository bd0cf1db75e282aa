// SPDX-License-Identifier: Apache-2.0

import _AmbientShims

// Why: only Core and Internals touch the C shims; TestClock's global-enqueue hook reaches the
// runtime's slot through these, with the shims' atomics.

/// The atomics around the runtime's `swift_task_enqueueGlobal_hook` slot, for TestClock's
/// `WokenWork`.
package enum EnqueueHookSlot {
    /// The hook in `slot` (acquire).
    @inline(__always)
    package static func load(_ slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> UnsafeMutableRawPointer? {
        _ambient_hook_load(slot)
    }

    /// Puts `new` in `slot` if it still holds `expected`; whether it did.
    @inline(__always)
    package static func replace(
        _ slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>, expected: UnsafeMutableRawPointer?,
        with new: UnsafeMutableRawPointer?
    ) -> Bool {
        _ambient_hook_replace(slot, expected, new)
    }

    /// The hook Ambient's hands uncounted jobs to, or `nil` (acquire).
    @inline(__always)
    package static var previous: UnsafeMutableRawPointer? {
        _ambient_previous_enqueue_hook_load()
    }

    /// Publishes the hook Ambient's will hand uncounted jobs to (release), before installing.
    @inline(__always)
    package static func setPrevious(_ hook: UnsafeMutableRawPointer?) {
        _ambient_previous_enqueue_hook_store(hook)
    }

    /// Whether any task is registered as leaving an actor for a TestClock (acquire): while
    /// none is, the hook need not look one up.
    @inline(__always)
    package static var hasLeavers: Bool {
        _ambient_hook_leavers_load() != 0
    }

    /// Counts one registration of a task leaving an actor in (`1`, before it is made) or out
    /// (`-1`, after it ends).
    @inline(__always)
    package static func countLeavers(_ delta: Int) {
        _ambient_hook_leavers_add(delta)
    }
}
