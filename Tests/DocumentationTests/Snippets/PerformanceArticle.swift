// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation
import Testing

// The ```swift blocks of Sources/Ambient/Ambient.docc/Performance.md, compiled and run.
// Each region from `// doc: name` to `// doc-end` is one block of the article, verbatim.

@Suite("Performance article")
struct PerformanceArticleTests {
    // doc: hoist
    func stamp(_ events: [String]) -> [String] {
        let clock = Clock.current  // one lookup, not one per event
        return events.map { "\(clock.now.timeIntervalSince1970) \($0)" }
    }
    // doc-end

    @Test func hoistingTheRead() {
        withInjected(Clock.fixed(Date(timeIntervalSince1970: 0))) {
            #expect(stamp(["a", "b"]) == ["0.0 a", "0.0 b"])
        }
    }
}
