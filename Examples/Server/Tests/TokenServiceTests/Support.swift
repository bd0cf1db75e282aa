// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Instrumentation
import ServiceContextModule
import TokenService

let noon = Date(timeIntervalSinceReferenceDate: 43_200)

/// The tests' signing key: the test client signs with it and the server accepts it, as a
/// deployment's test environment would configure both (`AMBIENT_CARRIER_KEYS`).
let testKey = try! PropagationSigningKey(id: "test", secret: Array("a test key, 32 bytes or longer!!".utf8))

/// Every report the server's instrument makes, for the tests that check what was dropped
/// (a limit far above what these tests send, so none is held back).
let reported = RejectionLog()

/// Both sides of these tests carry `PropagatedValues.tokenService` in headers, as the
/// `TokenServer` executable does: the client signs with ``testKey``, the server applies only
/// what it signed. `InstrumentationSystem.bootstrap` may run once per process: every test
/// reads this first.
let instrumented: Void = InstrumentationSystem.bootstrap(
    AmbientInstrument(
        propagating: .tokenService, signingWith: .hmacSHA256(testKey), trusting: .signed(by: [testKey]),
        onInvalid: RejectionReporter(maximumReports: 1_000_000) { rejection in
            reported.append(rejection)
            AmbientInstrument.logWarning(rejection)
        }))

/// The token service as these tests run it: trusting what ``testKey`` signed, reporting to
/// ``reported``.
func tokenService(port: Int = 0, capturingContext: Bool = false) -> some ApplicationProtocol {
    buildApplication(port: port, capturingContext: capturingContext, trust: .signed(by: [testKey]), onInvalid: reporter)
}

/// The server's reporter: into ``reported``, then as the default does.
let reporter = RejectionReporter(maximumReports: 1_000_000) { rejection in
    reported.append(rejection)
    RejectionReporter.logWarning(rejection)
}

/// The rejections reported, for tests to look up by what they sent.
final class RejectionLog: @unchecked Sendable {
    // @unchecked: `rejections` is only touched under `lock`.
    private let lock = NSLock()
    private var rejections: [PropagationRejection] = []

    func append(_ rejection: PropagationRejection) {
        lock.withLock { rejections.append(rejection) }
    }

    /// Those whose excerpt contains `marker`: what one test sent, among parallel tests'.
    func matching(_ marker: String) -> [PropagationRejection] {
        lock.withLock { rejections.filter { $0.excerpt.contains(marker) } }
    }
}

/// What `GET /ambient` reports the handler sees.
struct Seen: Equatable, CustomStringConvertible {
    var clock: Double
    var flags: String
    var request: String

    init(clock: Double, flags: String, request: String) {
        self.clock = clock
        self.flags = flags
        self.request = request
    }

    init(_ body: String) {
        var fields: [String: String] = [:]
        for pair in body.split(separator: " ") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            fields[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        self.init(
            clock: Double(fields["clock"] ?? "") ?? .nan, flags: fields["flags"] ?? "",
            request: fields["request"] ?? "")
    }

    /// Whether `clock` is the real time (within ten minutes).
    var clockIsLive: Bool {
        abs(clock - Date().timeIntervalSinceReferenceDate) < 600
    }

    var description: String { "clock=\(clock) flags=\(flags) request=\(request)" }
}

extension TestClientProtocol {
    /// `GET /ambient`: what the handler sees.
    func seen(headers: HTTPFields = [:]) async throws -> Seen {
        try await execute(uri: "/ambient", method: .get, headers: headers) { response in
            Seen(String(buffer: response.body))
        }
    }
}

/// Writes an instrument's fields into HTTP headers.
struct HTTPFieldsInjector: Injector {
    func inject(_ value: String, forKey key: String, into fields: inout HTTPFields) {
        if let name = HTTPField.Name(key) {
            fields[name] = value
        }
    }
}

extension HTTPFields {
    /// These headers plus the ambient values current here, as the instrument encodes them:
    /// what an instrumented HTTP client sends.
    func carryingAmbientValues() -> HTTPFields {
        var fields = self
        InstrumentationSystem.instrument.inject(
            ServiceContext.current ?? .topLevel, into: &fields, using: HTTPFieldsInjector())
        return fields
    }
}
