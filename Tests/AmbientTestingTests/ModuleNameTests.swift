// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation
import Testing

// Why: `import Ambient` re-exports AmbientCore, AmbientProviders and AmbientPropagation; code
// that qualifies a name (`Ambient.Logger`, beside swift-log's) must still compile.

@Suite struct ModuleNameTests {
    /// `Ambient.` qualifies every public name, whichever module under it declares it (the
    /// README's "Names that meet other modules" relies on it).
    @Test func ambientQualifiesTheNamesOfTheModulesItReExports() {
        let clock: Ambient.Clock = .fixed(Date(timeIntervalSince1970: 0))
        let log: Ambient.Logger = .capturing()
        let context: Ambient.InjectionContext = Ambient.withInjected(clock, log) { .current }
        #expect(context[Ambient.Clock.self]?.now == Date(timeIntervalSince1970: 0))
        #expect(context.injectedTypes.count == 2)
    }
}
