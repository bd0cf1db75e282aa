// SPDX-License-Identifier: Apache-2.0

import AmbientTesting

// Why: a test file's one import. This file imports nothing but AmbientTesting, as the
// Testing with Ambient article's blocks do: Ambient's values and Swift Testing's macros
// must both be in scope (it does not compile otherwise).

@Suite(.injecting(Region.posixUTC, Defaults.inMemory(["defaultColour": "Red"])))
struct OneImportTests {
    @Test func ambientAndSwiftTestingComeWithAmbientTesting() {
        #expect(Region.current.locale.identifier == "en_US_POSIX")
        #expect(Defaults.current.string(forKey: "defaultColour") == "Red")
        let log = Logger.capturing()
        withInjected(log) { Logger.current.info("one import") }
        #expect(log.captured.map(\.message) == ["one import"])
    }
}
