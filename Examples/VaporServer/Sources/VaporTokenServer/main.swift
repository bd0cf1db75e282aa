// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation
import Vapor
import VaporTokenService

// Why: the token service as a process, configured as a deployment would be.

// `VaporTokenServer [port]`. Carrier keys from `AMBIENT_CARRIER_KEYS` (`id:base64,…`; the
// first signs, all are accepted), none by default: then no request can set a value.
let port = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 8080
let keys = try (ProcessInfo.processInfo.environment["AMBIENT_CARRIER_KEYS"] ?? "").split(separator: ",").map {
    entry in
    let parts = entry.split(separator: ":", maxSplits: 1)
    guard parts.count == 2 else { throw Abort(.internalServerError, reason: "carrier key: expected id:base64") }
    return try PropagationSigningKey(id: String(parts[0]), base64: String(parts[1]))
}
// Vapor reads its command line as a command (`serve`): give it none, so it serves.
let app = try await Application.make(Environment(name: "production", arguments: [CommandLine.arguments[0]]))
app.http.server.configuration.hostname = "127.0.0.1"
app.http.server.configuration.port = port
app.configureTokenService(keys: keys)
try await app.execute()
try await app.asyncShutdown()
