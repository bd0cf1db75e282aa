// SPDX-License-Identifier: Apache-2.0

// How often each test clock drives swift-async-algorithms' time operators to the exact
// output in one advance (TimeScenarios), with two threads spinning on the other cores:
//
//   swift run -c release --package-path Examples/Interop CompareTestClocks [runs per row]
//
// Ambient's TestClock with the pipeline set up inside its scope, as its docs say; swift-
// clocks' TestClock as its docs say (no scope: it has none).
import Ambient
import AmbientTestClock
import Clocks
import Foundation
import TimeScenarios

let runs = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 300
print("| scenario (\(runs) runs each, 2 threads spinning) | Ambient TestClock: wrong | swift-clocks TestClock: wrong |")
print("|---|--:|--:|")
for scenario in TimeScenario.allCases {
    let ambient = await wrongRuns(of: scenario, runs) { .ambient() }
    let pointfree = await wrongRuns(of: scenario, runs) {
        let clock = Clocks.TestClock<Duration>()
        return ScenarioClock(clock: clock, advance: { await clock.advance(by: $0) }, scope: { body in await body() })
    }
    print("| \(scenario.rawValue) | \(ambient.count) | \(pointfree.count) |")
}
