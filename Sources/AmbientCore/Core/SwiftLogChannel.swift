// SPDX-License-Identifier: Apache-2.0

#if SwiftLog
import Logging
import _AmbientShims

// Why: with the SwiftLog trait, a scope that injects AmbientProviders' `Logger` binds
// swift-log's task-local logger too, and the core names no provider: the logger's type and
// the bridge are registered here by AmbientProviders.

// The core's half of the one logging channel (the whole story is in AmbientProviders'
// `SwiftLogBridge.swift`). A scope that injects the logger (Scope.swift's `_bindsSwiftLog`:
// the type answers `Injectable._bindsSwiftLogChannel`),
// or a captured context that holds one which is not the current one (`mustBind`), also
// binds swift-log's task-local logger to the registered bridge (`withBridge`).
//
// The registration is published once, before the first value of the logger type exists
// (its initialiser registers), so a scope or a context that holds a logger always finds it;
// where none was ever made, `mustBind` is one load of a null pointer.

/// What AmbientProviders registers: the logger's type and swift-log's bridge logger, whose
/// handler sends each entry to the current Ambient logger.
@usableFromInline
package final class SwiftLogChannelRegistration: Sendable {
    /// The type whose scopes bind the bridge.
    package let type: ObjectIdentifier
    /// swift-log's logger for such a scope.
    @usableFromInline package let bridge: Logging.Logger

    package init(type: any Injectable.Type, bridge: Logging.Logger) {
        self.type = ObjectIdentifier(type)
        self.bridge = bridge
    }
}

@usableFromInline
package enum SwiftLogChannel {
    /// Publishes `registration` if none is yet (the first wins; later calls do nothing).
    package static func register(_ registration: @autoclosure () -> SwiftLogChannelRegistration) {
        guard _ambient_log_channel_load() == nil else { return }
        let candidate = Unmanaged.passRetained(registration())
        if !_ambient_log_channel_replace(nil, candidate.toOpaque()) { candidate.release() }
    }

    /// The registration, if the logger type has made a value yet.
    @usableFromInline
    static var registration: SwiftLogChannelRegistration? {
        guard let raw = _ambient_log_channel_load() else { return nil }
        return Unmanaged<SwiftLogChannelRegistration>.fromOpaque(raw).takeUnretainedValue()
    }

    /// Whether running `context` must bind the bridge: it injects a logger, and not the one
    /// already current.
    @usableFromInline
    static func mustBind(_ context: InjectionContext) -> Bool {
        guard let channel = registration, let storage = context.storage,
            let logger = storage.address(ofKey: channel.type)
        else { return false }
        return Binding.currentStorage()?.address(ofKey: channel.type) != logger
    }

    /// Runs `body` with swift-log's task-local logger bound to the bridge, always: knowing
    /// whether it is bound already means reading swift-log's task-local, a copy of its
    /// logger and a compare of labels, which a scope outside any other Logger scope (the
    /// common one) would pay to save a nested one its binding.
    @inlinable
    static func withBridge<R>(_ body: () -> R) -> R {
        guard let channel = registration else { return body() }
        return withLogger(channel.bridge) { _ in body() }
    }

    /// Runs `body` with swift-log's task-local logger bound to the bridge (inlined into the
    /// scope, so swift-log's `withLogger` is specialised there with it).
    @inlinable
    static func withBridge<R>(
        isolation: isolated (any Actor)?, _ body: () async throws -> R
    ) async throws -> R {
        guard let channel = registration else { return try await body() }
        return try await withLogger(channel.bridge) { _ in try await body() }
    }
}
#endif
