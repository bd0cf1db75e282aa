// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation
import Testing

// Why: what the article's functions do, where the page only shows them (their blocks are
// compiled in Blocks.swift; these tests call them).

@Suite struct ReplacingSystemSingletonsBehaviourTests {
    @Test func handleAddsTheRequestToEveryEntry() {
        let log = Logger.capturing()
        withInjected(log) { handle(request: "r-1") }
        #expect(log.captured.map(\.metadata["request"]) == ["r-1"])
    }

    @Test func pollSlowlyMeasuresOnTheAmbientClock() async throws {
        let elapsed = try await withInjected(Clock.immediate()) { try await pollSlowly() }
        #expect(elapsed == .seconds(30))
    }
}
