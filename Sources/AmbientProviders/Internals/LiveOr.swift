// SPDX-License-Identifier: Apache-2.0

// Why: a provider's live value, or the object behind one of its test forms, in a shape whose
// destruction costs a never-injected read nothing.

/// A provider's state: `.live` (the system singleton: the live region, the process's
/// environment, the real disk, the default notification center, the main queue) or the
/// object behind a test form.
///
/// It holds what `Object?` would, in the same word, but is not one. After a read the caller
/// destroys the value it got, not knowing whether it was the live one: an optional reference
/// is destroyed by a call into the runtime (`swift_release`, which does nothing with `nil`,
/// across a library boundary), while this enum, with a second case that holds nothing, is
/// destroyed by a check in the caller's own code that skips the call for `.live`. The
/// `Benchmarks/ab` rows "read: never injected, Region" against "…, Clock" measure the
/// difference; ``Clock``'s own storage is an enum with several cases for the same reason.
@usableFromInline
package enum LiveOr<Object: AnyObject & Sendable>: Sendable {
    /// The live value.
    case live
    /// The provider's `current` wherever the value is used, not where it was made: what the
    /// one-file port's accessors (`FileManager.default`, `UserDefaults.standard`, …) return, so
    /// that one kept in a property follows the scope that uses it. Also the second case with no
    /// payload that makes the enum's destroy test its case before releasing (with one, it
    /// would be `Object?`'s: a call).
    case following
    /// A test form's object.
    case object(Object)

    /// `object`, or `.live` for `nil`.
    @inlinable
    package init(_ object: Object?) {
        if let object { self = .object(object) } else { self = .live }
    }

    /// Whether this is ``following``.
    @inlinable
    package var isFollowing: Bool {
        if case .following = self { return true }
        return false
    }

    /// The object, or `nil` for the live value; for ``following``, the object of `current` (the
    /// provider's current state, read only then), `nil` where that is live or following too.
    @inlinable
    package func resolved(following current: @autoclosure () -> LiveOr) -> Object? {
        guard isFollowing else { return object }
        return current().object
    }

    /// The object, or `nil` for the live value.
    @inlinable
    package var object: Object? {
        if case .object(let object) = self { return object }
        return nil
    }
}
