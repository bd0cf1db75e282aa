// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation
import Testing

// Why: `import Ambient` is the one import app code writes; it must give the three layers'
// names (the test clock is AmbientTesting's: TestClockLinkTests).

/// A user's own ambient type, declared with `import Ambient` alone.
private struct Theme: AmbientValue, Equatable {
    var name: String
    static var defaultValue: Theme { Theme(name: "light") }
}

@Suite("import Ambient re-exports the layers")
struct ExportsTests {
    /// The core (withInjected, AmbientValue), the providers (Clock, Defaults, Logger) and
    /// carrying (PropagatedValues) are all reachable through the one import.
    @Test func everyLayerIsReachableThroughTheOneImport() throws {
        let noon = Date(timeIntervalSinceReferenceDate: 43_200)
        withInjected(Theme(name: "dark"), Clock.fixed(noon), Defaults.inMemory(["k": "v"])) {
            #expect(Theme.current == Theme(name: "dark"))
            #expect(Clock.current.now == noon)
            #expect(Defaults.current.string(forKey: "k") == "v")
            #expect(InjectionContext.current[Theme.self] == Theme(name: "dark"))
        }
        let carried = try? Clock(propagationEncoding: #require(Clock.fixed(noon).propagationEncoding))
        #expect(carried?.now == noon)
    }
}
