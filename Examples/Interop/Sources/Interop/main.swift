// Runs the names example and checks each name resolved to the library it names.
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
let elapsed = measure(on: ContinuousClock()) {}
print("interop: OK (\(resolved.count) names, measure() took \(elapsed))")
