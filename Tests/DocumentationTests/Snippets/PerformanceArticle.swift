// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation
import Testing

// Behaviour tests around blocks of Sources/Ambient/Ambient.docc/Performance.md (Tests/Documents/ compiles
// every block as written). Each region from `// doc: name` to `// doc-end` is one block, verbatim.

@Suite("Performance article")
struct PerformanceArticleTests {
    func stamp(_ events: [String]) -> [String] {
        let clock = Clock.current  // one lookup, not one per event
        return events.map { "\(clock.now.timeIntervalSince1970) \($0)" }
    }

    @Test func hoistingTheRead() {
        withInjected(Clock.fixed(Date(timeIntervalSince1970: 0))) {
            #expect(stamp(["a", "b"]) == ["0.0 a", "0.0 b"])
        }
    }
}
