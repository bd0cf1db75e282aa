// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientTesting
import Foundation
import Testing
import Vapor
import VaporTesting
import VaporTokenService

// Why: a handler's strict-mode report fails the test that sent the request, not «unknown».

/// A test under `.strict()` sends a request in VaporTesting's `.inMemory` mode; the handler
/// reads `Tenant.current`, which the test did not inject. The report is the test's own issue.
@Suite("A handler's strict-mode report reaches the test that sent the request")
struct StrictModeTests {
    /// An async route's task is made from the test's task: the report is recorded at once,
    /// so the test's `withKnownIssue` sees it.
    @Test(.injecting(Clock.fixed(noon)), .strict(allowing: [Clock.self]))
    func inMemory_anAsyncRoutesReportIsTheTestsOwn() async throws {
        try await withKnownIssue {
            let seen = try await withTokenService { try await $0.testing(method: .inMemory).seen() }
            #expect(seen.clock == noon.timeIntervalSinceReferenceDate)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("Tenant.current was read but no Tenant was injected") }
        }
    }

    /// An EventLoopFuture route runs on the event loop, where Swift Testing cannot tell which
    /// test runs: the report is held there, and recorded in the test's task before the
    /// request's `await` returns, so the test's `withKnownIssue` sees it as well.
    @Test(.injecting(Clock.fixed(noon)), .strict(allowing: [Clock.self]))
    func inMemory_anEventLoopFutureRoutesReportIsTheTestsOwn() async throws {
        try await withKnownIssue {
            let seen = try await withTokenService { try await $0.testing(method: .inMemory).seen("ambient/future") }
            #expect(seen.clock == noon.timeIntervalSinceReferenceDate)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("Tenant.current was read but no Tenant was injected") }
        }
    }

    /// The report is recorded before the request's `await` returns: a `withKnownIssue` around
    /// the request alone sees it, and nothing is left for the end of the test.
    @Test(.injecting(Clock.fixed(noon)), .strict(allowing: [Clock.self]))
    func inMemory_anEventLoopFutureRoutesReportArrivesBeforeTheRequestReturns() async throws {
        try await withTokenService { app in
            try await withKnownIssue {
                _ = try await app.testing(method: .inMemory).seen("ambient/future")
            } matching: { issue in
                issue.comments.contains { $0.rawValue.contains("Tenant.current was read but no Tenant was injected") }
            }
        }
    }
}
