// SPDX-License-Identifier: Apache-2.0

import Ambient
import Hummingbird

/// The capture-and-run middleware, for a server whose tasks do not inherit the scope it
/// was built in: a server shared by many tests, or run by a `ServiceGroup` started
/// elsewhere. It captures the `InjectionContext` current when the application is built,
/// and re-enters it for every request.
///
/// ```swift
/// let app = withInjected(Clock.fixed(noon)) {
///     buildApplication(capturingContext: true)  // captured here
/// }
/// // …run anywhere: handlers see the fixed clock.
/// ```
///
/// The captured values sit *under* the request task's own: where the handler's task
/// already has a value (HummingbirdTesting's `.router` mode runs it in the test's task),
/// that value wins.
public struct CapturedContextMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The values every request starts with.
    public let captured: InjectionContext

    /// Captures `captured`: by default, what is current where the middleware is made.
    public init(_ captured: InjectionContext = .current) {
        self.captured = captured
    }

    /// Runs `next` inside the captured context, the task's own values on top.
    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        try await captured.injecting(contentsOf: .current).run {
            try await next(request, context)
        }
    }
}
