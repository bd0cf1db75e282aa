// SPDX-License-Identifier: Apache-2.0

// Why: with nothing injected, the one-file port is invisible. This program runs the same
// legacy lines against the module as written (EchoUnported) and against it ported
// (EchoPorted, this file linked, PORTED defined); ShadowedSingletonsTests compares what the
// two write, byte for byte.

import Foundation

#if PORTED
import ShadowedSingletons
#else
import UnportedSingletons
#endif

let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("echo-\(getpid())")
let written = FileManager.default.temporaryDirectory.appendingPathComponent("echo-\(getpid()).bin")
defer {
    try? FileManager.default.removeItem(at: scratch)
    try? FileManager.default.removeItem(at: written)
}

logBoth("x")
printReceipt([("tea", 2.5), ("cake", 3)])
for line in regionDescriptions() { print(line) }
print(formatted(Date(timeIntervalSince1970: 1_000_000_000)), formattedNumber(1234.5))
print(try roundTrip(Data("bytes".utf8), named: written.lastPathComponent) == Data("bytes".utf8))
try Data("twelve bytes".utf8).write(to: scratch)
print(try fileSize(atPath: scratch.path))
let shared = Counter(label: "echo.shared")
let child = Counter(label: "echo.child", sharing: shared)
for _ in 0..<3 { child.increment() }
print(child.value, shared.value, Counter(label: "echo.alone").value)
print(type(of: Date()), type(of: UUID()))
