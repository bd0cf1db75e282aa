// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientTesting
import Foundation
import Vapor
import VaporTokenService
import XCTVapor
import XCTest

// Why: XCTVapor's column of the server article's table: what reaches a handler from an XCTest test.

/// XCTVapor's `app.test` (in memory by default), one test per setup.
final class XCTVaporInheritanceTests: XCTestCase {
    func seen(_ app: Application, headers: HTTPHeaders = [:]) async throws -> Seen {
        var seen = Seen("")
        try await app.test(.GET, "ambient", headers: headers) { response async in
            seen = Seen(response.body.string)
        }
        return seen
    }

    func testAScopeAroundTheTestReachesTheHandler() async throws {
        let seen = try await withInjected(Clock.fixed(noon), Tenant("enterprise")) {
            try await withTokenService { try await self.seen($0) }
        }
        XCTAssertTrue(seen.sawTheTestsValues, "\(seen)")
    }

    func testSignedHeadersReachTheHandler() async throws {
        let headers = withInjected(Clock.fixed(noon), Tenant("enterprise")) { signedHeaders() }
        let seen = try await withTokenService { try await self.seen($0, headers: headers) }
        XCTAssertTrue(seen.sawTheTestsValues, "\(seen)")
    }

    func testTheCapturedContextReachesTheHandler() async throws {
        let captured = InjectionContext().injecting(Clock.fixed(noon), Tenant("enterprise"))
        let seen = try await withTokenService(capturing: captured) { try await self.seen($0) }
        XCTAssertTrue(seen.sawTheTestsValues, "\(seen)")
    }

    func testAScopeAroundARunningServersTestDoesNotReachTheHandler() async throws {
        let seen = try await withInjected(Clock.fixed(noon), Tenant("enterprise")) {
            try await withTokenService { app in
                var seen = Seen("")
                try await app.testable(method: .running(port: 0)).test(.GET, "ambient") { response async in
                    seen = Seen(response.body.string)
                }
                return seen
            }
        }
        XCTAssertTrue(seen.clockIsLive && seen.tenant == "anonymous", "\(seen)")
    }
}

/// XCTVapor with AmbientTesting's `InjectingTestCase`: its `injections` are XCTest's
/// `.injecting` trait.
final class XCTVaporInjectingTests: InjectingTestCase {
    override var injections: InjectionContext {
        InjectionContext().injecting(Clock.fixed(noon), Tenant("enterprise"))
    }

    func testInjectionsReachAnInMemoryHandler() async throws {
        let seen = try await withTokenService { app in
            var seen = Seen("")
            try await app.test(.GET, "ambient") { response async in seen = Seen(response.body.string) }
            return seen
        }
        XCTAssertTrue(seen.sawTheTestsValues, "\(seen)")
    }

    func testInjectionsReachARunningServerWhenCapturedAtConfigure() async throws {
        let seen = try await withTokenService(capturing: .current) { app in
            var seen = Seen("")
            try await app.testable(method: .running(port: 0)).test(.GET, "ambient") { response async in
                seen = Seen(response.body.string)
            }
            return seen
        }
        XCTAssertTrue(seen.sawTheTestsValues, "\(seen)")
    }
}
