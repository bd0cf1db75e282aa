// SPDX-License-Identifier: Apache-2.0

// How often Ambient's TestClock moves time before the work it woke has settled, for each
// pipeline (TestPipeline) run from each isolation a test can have (TestIsolation), with two
// threads spinning on the other cores:
//
//   swift run -c release --package-path Examples/Interop SettleGaps [runs per row] [threads spinning] [pipeline…]
//
// Prints one table row per pipeline and isolation: wrong runs, and one wrong output.
import Foundation
import TimeScenarios

let arguments = CommandLine.arguments.dropFirst()
let runs = arguments.first.flatMap(Int.init) ?? 1_000
let spinning = arguments.dropFirst().first.flatMap(Int.init) ?? 2
let chosen = arguments.dropFirst().compactMap(TestPipeline.init(rawValue:))
let pipelines = chosen.isEmpty ? TestPipeline.allCases : chosen
print("| pipeline (\(runs) runs each, \(spinning) threads spinning) | isolation | wrong | e.g. |")
print("|---|---|--:|---|")
for pipeline in pipelines {
    for isolation in TestIsolation.allCases {
        let wrong = try await wrongOutputs(runs, expected: pipeline.expected, spinningThreads: spinning) {
            try await isolation.run(pipeline)
        }
        let example = wrong.first.map { "\($0)" } ?? ""
        print("| \(pipeline.rawValue) | \(isolation.rawValue) | \(wrong.count) | \(example) |")
    }
}
