// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders

#if ServiceContext
import ServiceContextModule

// Why: a ServiceContext goes where ambient values cannot (event loops, instruments), carrying a context.

extension ServiceContext {
    /// The ``InjectionContext`` this service context carries: set it to send injected
    /// values wherever the service context goes (an `AmbientInstrument` encodes it into a
    /// request's headers; a server's handler enters it with
    /// `withInjected(propagatedBy:operation:)`).
    ///
    /// ```swift
    /// var context = ServiceContext.current ?? .topLevel
    /// context.injectionContext = InjectionContext.current
    /// try await ServiceContext.withValue(context) { try await client.execute(request) }
    /// ```
    public var injectionContext: InjectionContext? {
        get { self[InjectionContextKey.self] }
        set { self[InjectionContextKey.self] = newValue }
    }
}

/// Where a `ServiceContext` keeps its ``InjectionContext``.
enum InjectionContextKey: ServiceContextKey {
    typealias Value = InjectionContext
    static var nameOverride: String? { "ambient.injection-context" }
}

extension InjectionContext {
    /// The current context with the values `serviceContext` carries on top (theirs win);
    /// the current context alone when it carries none.
    public static func current(propagatedBy serviceContext: ServiceContext?) -> InjectionContext {
        guard let carried = serviceContext?.injectionContext, !carried.isEmpty else { return .current }
        return InjectionContext.current.injecting(contentsOf: carried)
    }
}

/// Runs `operation` with the values `serviceContext` carries injected on top of the current
/// ones: for a server's handler, the values the request brought.
///
/// ```swift
/// // A Hummingbird middleware, after the tracing middleware has extracted the headers:
/// try await withInjected(propagatedBy: ServiceContext.current) {
///     try await next(request, context)
/// }
/// ```
public func withInjected<R, Failure: Error>(
    propagatedBy serviceContext: ServiceContext?,
    operation: () throws(Failure) -> R
) throws(Failure) -> R {
    try InjectionContext.current(propagatedBy: serviceContext).run(operation)
}

/// Runs the asynchronous `operation` with the values `serviceContext` carries injected on
/// top of the current ones, on the caller's isolation.
public func withInjected<R, Failure: Error>(
    propagatedBy serviceContext: ServiceContext?,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws(Failure) -> R
) async throws(Failure) -> R {
    try await InjectionContext.current(propagatedBy: serviceContext).run(isolation: isolation, operation)
}
#endif
