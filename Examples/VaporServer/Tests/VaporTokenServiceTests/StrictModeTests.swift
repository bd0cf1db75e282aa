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
    /// test runs: the report is held and recorded against the test when its body returns.
    /// The test runs the trait's scope itself, inside `withKnownIssue`, so that moment falls
    /// inside it.
    @Test func inMemory_anEventLoopFutureRoutesReportIsRecordedWhenTheTestsBodyReturns() async throws {
        let test = try #require(Test.current)
        try await withKnownIssue {
            try await InjectionTrait.strict(allowing: [Clock.self]).provideScope(for: test, testCase: Test.Case.current)
            {
                try await withInjected(Clock.fixed(noon)) { () async throws in
                    _ = try await withTokenService { try await $0.testing(method: .inMemory).seen("ambient/future") }
                }
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("Tenant.current was read but no Tenant was injected") }
        }
    }
}
