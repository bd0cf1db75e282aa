// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientTesting
import Foundation
import Testing
import Vapor
import VaporTesting
import VaporTokenService

// Why: a strict test hears of every read its request caused, in every route style, whether the app added AmbientMiddleware or not.

/// Every route style, with `AmbientMiddleware` and without, in VaporTesting's `.inMemory`
/// mode, under `.strict(allowing: [Clock.self], everyThread: true)`: the handler reads
/// `Tenant.current`, which nothing injected, and the test hears of it, once. In the request's
/// scope (an async route; with the middleware, an EventLoopFuture route's body and what it
/// chains on `request.ambientEventLoop`) the test's strict mode reports it; on a thread no
/// scope reached (`request.eventLoop.submit`, a thread pool, and without the middleware every
/// EventLoopFuture route) the process-wide strict mode does, and `recordHeldReports()`
/// records it before the `withKnownIssue` ends.
///
/// A process-wide scope hears of every unscoped read in the process: CI runs this suite in a
/// process of its own, one test at a time (`--filter EveryThreadStrictModeTests
/// --no-parallel`); the package's other tests, which read on unscoped threads on purpose,
/// run without it (`--skip`).
@Suite("Strict mode on every thread: each route style, with and without the middleware", .serialized)
struct EveryThreadStrictModeTests {
    static let routes = [
        "ambient", "ambient/future", "ambient/submit", "ambient/bound-submit", "ambient/hop", "ambient/thread-pool",
        "ambient/bound-thread-pool",
    ]

    // doc-block: vapor-every-thread
    @Test(
        .injecting(Clock.fixed(noon)), .strict(allowing: [Clock.self], everyThread: true),
        arguments: routes, [true, false])
    func theTenantReadIsReported(route: String, middleware: Bool) async throws {
        let tenantReports = Counter()
        try await withTokenService(middleware: middleware) { app in
            try await withKnownIssue {
                let response = try await app.testing(method: .inMemory).sendRequest(.GET, route)
                #expect(response.status == .ok, "\(response.body.string)")
                recordHeldReports()
            } matching: { issue in
                let text = issue.comments.map(\.rawValue).joined(separator: " ")
                if text.contains("Tenant.current was read but no Tenant was injected") { tenantReports.increment() }
                return text.contains("Strict mode:")
            }
        }
        #expect(tenantReports.value == 1, "\(route), middleware: \(middleware)")
    }
    // doc-block-end
}

/// A count incremented from the issue matcher.
final class Counter: @unchecked Sendable {
    // @unchecked: `count` is only touched with `lock` held.
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
