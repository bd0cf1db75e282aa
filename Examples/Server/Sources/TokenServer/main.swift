// SPDX-License-Identifier: Apache-2.0

// Runs the token service: `swift run --package-path Examples/Server TokenServer [port]`.
//
// Callers may fix its clock and tenant flags (`ambient-*` headers or W3C baggage) only when
// they sign them with a key it holds: set `AMBIENT_CARRIER_KEYS=id:base64[,id:base64…]`
// (the first key signs, all are accepted). Without it, nothing a request carries changes a
// value: a forged `ambient-tenant-flags: long-lived` gets a free tenant nothing.
//   curl -X POST -H 'x-tenant: free' -H 'ambient-tenant-flags: long-lived' localhost:8080/tokens
// `scripts/smoke` signs a request the way a test client does.
import Ambient
import Foundation
import Hummingbird
import TokenService

let keys = try propagationKeys(from: ProcessInfo.processInfo.environment["AMBIENT_CARRIER_KEYS"])
let port = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 8080
let app = buildApplication(port: port, trust: keys.isEmpty ? .nobody : .signed(by: keys))
try await app.runService()
