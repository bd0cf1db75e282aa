// SPDX-License-Identifier: Apache-2.0

import Ambient
import Dispatch

// Why: the demo shows what a read and a scope cost against the raw task-local floor.

/// A quick in-process comparison (the full suite is `Benchmarks/run`): a raw `@TaskLocal`
/// read and `withValue` against `Clock.current` and `withInjected`, ns/op, median of 5 rounds.
enum Overhead {
    enum Raw {
        @TaskLocal static var clock = Clock.live
    }

    @inline(never)
    static func consume<T>(_ value: T) {
        withExtendedLifetime(value) {}
    }

    static func measure(_ iterations: Int, _ body: () -> Void) -> Double {
        var samples: [Double] = []
        for _ in 0..<5 {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(iterations))
        }
        return samples.sorted()[2]
    }

    static func table(iterations: Int = 1_000_000) -> String {
        let fixed = Clock.fixed(.distantPast)
        let rows: [(String, Double)] = [
            (
                "raw @TaskLocal read (bound)",
                measure(iterations) {
                    Raw.$clock.withValue(fixed) { for _ in 0..<iterations { consume(Raw.clock) } }
                }
            ),
            (
                "Clock.current (inside withInjected)",
                measure(iterations) {
                    withInjected(fixed) { for _ in 0..<iterations { consume(Clock.current) } }
                }
            ),
            (
                "raw TaskLocal.withValue enter+exit",
                measure(iterations / 10) {
                    for _ in 0..<(iterations / 10) { Raw.$clock.withValue(fixed) { consume(Raw.clock) } }
                }
            ),
            (
                "withInjected enter+exit (1 value)",
                measure(iterations / 10) {
                    for _ in 0..<(iterations / 10) { withInjected(fixed) { consume(Clock.current) } }
                }
            ),
        ]
        var lines = ["| operation | ns/op |", "|---|---:|"]
        for (name, nanoseconds) in rows {
            lines.append("| \(name) | \((nanoseconds * 10).rounded() / 10) |")
        }
        return lines.joined(separator: "\n")
    }
}
