// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: `NotificationCenter.default` is one center for the whole process, so one test's
// observers see every parallel test's posts. A scope injects a fresh center of its own.

/// The ambient notification center: use it where code used `NotificationCenter.default`.
///
/// ```swift
/// extension Notification.Name { static let cartChanged = Notification.Name("cartChanged") }
///
/// func addToCart(_ item: String) {
///     Notifications.current.post(name: .cartChanged, object: nil, userInfo: ["item": item])
/// }
///
/// // A center of this scope's own: parallel tests never see each other's posts.
/// await withInjected(Notifications.isolated()) { () async in
///     let (posts, continuation) = AsyncStream.makeStream(of: String.self)
///     let token = Notifications.current.addObserver(forName: .cartChanged) { note in
///         continuation.yield(note.userInfo?["item"] as? String ?? "")
///     }
///     addToCart("tea")                       // observers run synchronously on post
///     continuation.finish()
///     Notifications.current.removeObserver(token)
///     #expect(await posts.reduce(into: []) { $0.append($1) } == ["tea"])
/// }
/// ```
///
/// ``center`` is the `NotificationCenter` itself, for APIs that take one.
public struct Notifications: AmbientValue, CustomStringConvertible {
    /// The center, or `.live` for `NotificationCenter.default` (so a never-injected read
    /// counts no reference; ``LiveOr`` says why not an optional).
    @usableFromInline
    let state: LiveOr<NotificationCenter>

    /// The center a test form owns; `nil` for the live value. For ``followingCurrent``, the
    /// current value's.
    var ownCenter: NotificationCenter? {
        state.resolved(following: Notifications.current.state)
    }

    /// Posts and observers go to `center`.
    public init(center: NotificationCenter) {
        state = .object(center)
    }

    @inlinable
    init(live: Void) {
        state = .live
    }

    /// The center posts and observers go to.
    public var center: NotificationCenter {
        ownCenter ?? .default
    }

    /// `NotificationCenter.default`.
    public static let live = Notifications(live: ())

    /// The notifications ``AmbientValue/current`` is wherever this value is used, not where it was taken:
    /// each post, observer and removal goes to the current center. What the one-file port's
    /// `NotificationCenter.default` is, so that a center kept in a property (made before a
    /// test's scope) posts to and observes the center the running test injected.
    ///
    /// Injected itself, it is the live center.
    public static let followingCurrent = Notifications(following: ())

    private init(following: Void) {
        state = .following
    }

    /// The live center, built in place (inlinable: no lazy global's check).
    @inlinable
    public static var defaultValue: Notifications {
        Notifications(live: ())
    }

    /// A new, empty center of its own: nothing posted elsewhere reaches its observers, and
    /// nothing posted to it reaches `NotificationCenter.default`'s. Make one per test.
    public static func isolated() -> Notifications {
        Notifications(center: NotificationCenter())
    }

    /// `center.post(name:object:userInfo:)`.
    public func post(
        name: Notification.Name, object: (any Sendable)? = nil, userInfo: [AnyHashable: any Sendable]? = nil
    ) {
        center.post(name: name, object: object, userInfo: userInfo)
    }

    /// `center.post(_:)`.
    public func post(_ notification: Notification) {
        center.post(notification)
    }

    /// `center.addObserver(forName:object:queue:using:)`: keep the token and pass it to
    /// ``removeObserver(_:)``.
    public func addObserver(
        forName name: Notification.Name?, object: (any Sendable)? = nil, queue: OperationQueue? = nil,
        using block: @escaping @Sendable (Notification) -> Void
    ) -> any NSObjectProtocol {
        center.addObserver(forName: name, object: object, queue: queue, using: block)
    }

    /// `center.addObserver(forName:object:queue:using:)` with the main queue as legacy code
    /// passes it (`queue: .main` in a module that adopts Ambient by its one file): `block` runs
    /// on `queue` (the live main queue or a driven one) inside the scope that added the
    /// observer. Keep the token and pass it to ``removeObserver(_:)``.
    ///
    /// ```swift
    /// let token = Notifications.current.addObserver(forName: .cartChanged, queue: MainQueue.current) { _ in
    ///     badge.refresh()   // on the main actor, with the adder's values
    /// }
    /// ```
    public func addObserver(
        forName name: Notification.Name?, object: (any Sendable)? = nil, queue: MainQueue,
        using block: @escaping @MainActor @Sendable (Notification) -> Void
    ) -> any NSObjectProtocol {
        let context = InjectionContext.current
        return center.addObserver(forName: name, object: object, queue: nil) { notification in
            // `Notification` is not marked `Sendable`; it is handed on once, unchanged.
            nonisolated(unsafe) let notification = notification
            context.run { queue.async { block(notification) } }
        }
    }

    /// `center.removeObserver(_:)`.
    public func removeObserver(_ observer: Any) {
        center.removeObserver(observer)
    }

    /// `Notifications.live`, or which center this is.
    public var description: String {
        if state.isFollowing { return "Notifications.followingCurrent" }
        guard let ownCenter else { return "Notifications.live" }
        return "Notifications(center: \(ObjectIdentifier(ownCenter)))"
    }
}
