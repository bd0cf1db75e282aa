// SPDX-License-Identifier: Apache-2.0

import Ambient
import Testing

// The ```swift block of Sources/Ambient/Ambient.docc/Ambient.md (the landing page), compiled
// and run. The region from `// doc: name` to `// doc-end` is the block, verbatim.

@Suite("Landing page")
struct LandingPageTests {
    func makeWidget() -> String {
        (Defaults.current.string(forKey: "defaultColour") ?? "") + "Widget"
    }

    @Test func widgetUsesTheDefaultColour() {
        // doc: landing
        withInjected(Defaults.inMemory(["defaultColour": "Red"])) {
            #expect(makeWidget() == "RedWidget")
        }
        // doc-end
    }
}
