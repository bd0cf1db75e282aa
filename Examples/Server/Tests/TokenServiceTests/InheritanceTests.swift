// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TokenService

/// Which setup makes a test's injected values reach the handler: the table in the DocC
/// article "Ambient in a Server", one test per cell.
@Suite("What reaches the handler, in each HummingbirdTesting mode")
struct InheritanceTests {
    init() { instrumented }

    // MARK: .router: the handler runs in the test's own task

    @Test func router_aScopeAroundAppTestReachesTheHandler() async throws {
        let seen = try await withInjected(Clock.fixed(noon)) {
            try await tokenService().test(.router) { try await $0.seen() }
        }
        #expect(seen.clock == noon.timeIntervalSinceReferenceDate)
    }

    @Test func router_aScopeAroundExecuteReachesTheHandler() async throws {
        // doc-block: hummingbird-router-scope
        let seen = try await tokenService().test(.router) { client in
            try await withInjected(Clock.fixed(noon)) { try await client.seen() }
        }
        // doc-block-end
        #expect(seen.clock == noon.timeIntervalSinceReferenceDate)
    }

    // MARK: .live: the handler runs in the server's tasks

    @Test func live_aScopeAroundAppTestReachesTheHandler() async throws {
        let seen = try await withInjected(Clock.fixed(noon)) {
            try await tokenService().test(.live) { try await $0.seen() }
        }
        #expect(seen.clock == noon.timeIntervalSinceReferenceDate)
    }

    @Test func live_aScopeAroundExecuteDoesNotReachTheHandler() async throws {
        let seen = try await tokenService().test(.live) { client in
            try await withInjected(Clock.fixed(noon)) { try await client.seen() }
        }
        #expect(seen.clockIsLive, "the server's task never saw the test's scope: \(seen)")
    }

    @Test func live_valuesSentInHeadersReachTheHandler() async throws {
        let seen = try await tokenService().test(.live) { client in
            try await withInjected(Clock.fixed(noon), TenantFlags(longLivedTokens: true)) {
                try await client.seen(headers: HTTPFields().carryingAmbientValues())
            }
        }
        #expect(seen == Seen(clock: noon.timeIntervalSinceReferenceDate, flags: "long-lived", request: seen.request))
    }

    // MARK: A shared server: started outside the test's scope

    @Test func shared_theCapturedContextReachesTheHandler() async throws {
        // doc-block: hummingbird-shared-server
        let app = withInjected(Clock.fixed(noon)) { tokenService(capturingContext: true) }
        let seen = try await app.test(.live) { try await $0.seen() }
        // doc-block-end
        #expect(seen.clock == noon.timeIntervalSinceReferenceDate)
    }

    @Test func shared_withoutCapturingTheScopeTheAppWasBuiltInIsLost() async throws {
        let app = withInjected(Clock.fixed(noon)) { tokenService() }
        let seen = try await app.test(.live) { try await $0.seen() }
        #expect(seen.clockIsLive)
    }

    @Test func shared_headersBeatTheCapturedContext() async throws {
        let app = withInjected(Clock.fixed(noon)) { tokenService(capturingContext: true) }
        let seen = try await app.test(.live) { client in
            try await withInjected(Clock.fixed(Date(timeIntervalSinceReferenceDate: 1))) {
                try await client.seen(headers: HTTPFields().carryingAmbientValues())
            }
        }
        #expect(seen.clock == 1)
    }

    @Test func router_theTestsOwnScopeBeatsTheCapturedContext() async throws {
        let app = withInjected(Clock.fixed(noon)) { tokenService(capturingContext: true) }
        let seen = try await app.test(.router) { client in
            try await withInjected(Clock.fixed(Date(timeIntervalSinceReferenceDate: 1))) { try await client.seen() }
        }
        #expect(seen.clock == 1)
    }
}

extension InheritanceTests {
    @Test func router_valuesSentInHeadersReachTheHandler() async throws {
        let seen = try await tokenService().test(.router) { client in
            try await withInjected(TenantFlags(longLivedTokens: true)) {
                try await client.seen(headers: HTTPFields().carryingAmbientValues())
            }
        }
        #expect(seen.flags == "long-lived")
    }

    @Test func router_theCapturedContextReachesTheHandler() async throws {
        let app = withInjected(Clock.fixed(noon)) { tokenService(capturingContext: true) }
        let seen = try await app.test(.router) { try await $0.seen() }
        #expect(seen.clock == noon.timeIntervalSinceReferenceDate)
    }

    @Test func live_theCapturedContextReachesTheHandler() async throws {
        let app = withInjected(Clock.fixed(noon)) { tokenService(capturingContext: true) }
        let seen = try await withInjected(Clock.fixed(Date(timeIntervalSinceReferenceDate: 1))) {
            // The server's tasks inherit this scope too, and it wins over the captured one.
            try await app.test(.live) { try await $0.seen() }
        }
        #expect(seen.clock == 1)
    }
}
