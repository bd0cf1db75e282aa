// SPDX-License-Identifier: Apache-2.0

import Ambient
import Testing

// Why: what the article's classes do, where the page only shows them (their blocks are
// compiled in Blocks.swift; this test uses them).

@Suite struct MigratingFromASwizzledSingletonBehaviourTests {
    @Test func aStoredCurrentPinsTheFirstFakeAndAComputedOneDoesNot() {
        let first = Defaults.inMemory()
        let second = Defaults.inMemory()
        let (cache, store) = withInjected(first) { (SettingsCache(), SettingsStore()) }
        withInjected(second) {
            cache.remember(1)
            store.remember(2)
        }
        #expect(first.snapshot == ["cached": 1])  // the stored property wrote into the first fake
        #expect(second.snapshot == ["cached": 2])  // the computed one into the fake in effect
    }
}
