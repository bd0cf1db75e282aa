// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation
import Testing

// Why: what the article's functions do, where the page only shows them (their blocks are
// compiled in Blocks.swift; these tests call them).

@Suite struct CarryingContextAcrossThreadsBehaviourTests {
    @Test func loadInBackgroundCarriesTheInjectedDefaults() async {
        let widget = await withInjected(Defaults.inMemory(["defaultColour": "Blue"])) {
            await withCheckedContinuation { continuation in
                loadInBackground { continuation.resume(returning: $0) }
            }
        }
        #expect(widget == "BlueWidget")
    }

    @Test func theManagersCallbackSeesTheCreatingScope() async {
        let fixed = Date(timeIntervalSince1970: 42)
        let log = Logger.capturing()
        let manager = withInjected(Clock.fixed(fixed), log) { SyncManager() }
        let seen = await withCheckedContinuation { continuation in
            manager.syncLater { continuation.resume(returning: $0) }
        }
        #expect(seen == fixed)
        #expect(log.captured.map(\.message) == ["syncing"])
    }
}
