// SPDX-License-Identifier: Apache-2.0

// Runs the names example and checks each name resolved to the library it names; then the
// bridges' examples, checking what they log and carry.
import Ambient
import Foundation

let resolved = try await names()
logSync()
let expected = [
    "Logger(", "server", "TestClock(now: ", "Clock(", "00000000-0000-0000-0000-000000000000",
    "00000000-0000-0000-0000-000000000000",
]
for (value, prefix) in zip(resolved, expected) where !value.hasPrefix(prefix) {
    print("interop: FAIL \(value) should start with \(prefix)")
    exit(1)
}
let logged = testLogging()
if logged != ["handled", "synced"] {
    print("interop: FAIL the test's logger captured \(logged)")
    exit(1)
}
let served = serve(headers: requestHeaders())
if served != "2001-01-01 00:00:00 +0000 new checkout: true" {
    print("interop: FAIL the server saw \(served)")
    exit(1)
}
// A forgery (the same values, unsigned) changes nothing on the server.
let forged = serve(headers: requestHeaders().filter { $0.key != "ambient-signature" })
if forged.hasPrefix("2001-01-01") || forged.hasSuffix("true") {
    print("interop: FAIL unsigned headers were applied: \(forged)")
    exit(1)
}
let elapsed = measure(on: ContinuousClock()) {}
print("interop: OK (\(resolved.count) names, both bridges, measure() took \(elapsed))")
