// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientTesting
import Foundation
import Testing
import Vapor
import VaporTesting
import VaporTokenService

// Why: which setup makes a test's values reach a Vapor handler, one test per cell of the server article's table.

/// Which setup makes a test's injected values reach the handler, in VaporTesting's two
/// modes: the table in the DocC article "Ambient in a Server", one test per cell (XCTVapor's
/// column is `XCTVaporInheritanceTests`).
@Suite("What reaches a Vapor handler, in each VaporTesting mode")
struct InheritanceTests {
    // MARK: .inMemory: the responder runs in a task the test's task starts

    @Test func inMemory_aScopeAroundTheTestReachesTheHandler() async throws {
        let seen = try await withInjected(Clock.fixed(noon), Tenant("enterprise")) {
            try await withTokenService { try await $0.testing(method: .inMemory).seen() }
        }
        #expect(seen.sawTheTestsValues, "\(seen)")
    }

    @Test(.injecting(Clock.fixed(noon), Tenant("enterprise")))
    func inMemory_anInjectingTraitReachesTheHandler() async throws {
        let seen = try await withTokenService { try await $0.testing(method: .inMemory).seen() }
        #expect(seen.sawTheTestsValues, "\(seen)")
    }

    @Test func inMemory_signedHeadersReachTheHandler() async throws {
        let headers = withInjected(Clock.fixed(noon), Tenant("enterprise")) { signedHeaders() }
        let seen = try await withTokenService { try await $0.testing(method: .inMemory).seen(headers: headers) }
        #expect(seen.sawTheTestsValues, "\(seen)")
    }

    @Test func inMemory_theCapturedContextReachesTheHandler() async throws {
        let captured = InjectionContext().injecting(Clock.fixed(noon), Tenant("enterprise"))
        let seen = try await withTokenService(capturing: captured) { try await $0.testing(method: .inMemory).seen() }
        #expect(seen.sawTheTestsValues, "\(seen)")
    }

    // MARK: .running: the handler runs in the server's tasks, started from NIO's threads

    @Test func running_aScopeAroundTheTestDoesNotReachTheHandler() async throws {
        let seen = try await withInjected(Clock.fixed(noon), Tenant("enterprise")) {
            try await withTokenService { try await $0.testing(method: .running(port: 0)).seen() }
        }
        #expect(seen.clockIsLive && seen.tenant == "anonymous", "the server's task never saw the test's scope: \(seen)")
    }

    @Test(.injecting(Clock.fixed(noon), Tenant("enterprise")))
    func running_anInjectingTraitDoesNotReachTheHandler() async throws {
        let seen = try await withTokenService { try await $0.testing(method: .running(port: 0)).seen() }
        #expect(seen.clockIsLive && seen.tenant == "anonymous", "\(seen)")
    }

    @Test func running_signedHeadersReachTheHandler() async throws {
        let headers = withInjected(Clock.fixed(noon), Tenant("enterprise")) { signedHeaders() }
        let seen = try await withTokenService { try await $0.testing(method: .running(port: 0)).seen(headers: headers) }
        #expect(seen.sawTheTestsValues, "\(seen)")
    }

    @Test func running_theCapturedContextReachesTheHandler() async throws {
        // Capture at configure: the test's scope, captured where the app is set up.
        let seen = try await withInjected(Clock.fixed(noon), Tenant("enterprise")) {
            try await withTokenService(capturing: .current) { try await $0.testing(method: .running(port: 0)).seen() }
        }
        #expect(seen.sawTheTestsValues, "\(seen)")
    }

    @Test(.injecting(Clock.fixed(noon), Tenant("enterprise")))
    func running_anInjectingTraitReachesTheHandlerWhenCapturedAtConfigure() async throws {
        let seen = try await withTokenService(capturing: .current) {
            try await $0.testing(method: .running(port: 0)).seen()
        }
        #expect(seen.sawTheTestsValues, "\(seen)")
    }
}
