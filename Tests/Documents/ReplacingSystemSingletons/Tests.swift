// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation
import Testing

// Why: what the article's functions do, where the page only shows them (their blocks are
// compiled in Blocks.swift; these tests call them).

@Suite struct ReplacingSystemSingletonsBehaviourTests {
    @Test func useDarkModeStoresTheTheme() {
        let defaults = Defaults.inMemory()
        withInjected(defaults) { useDarkMode() }
        #expect(defaults.snapshot == ["theme": "dark"])
    }

    @Test func watchColourSeesChanges() async {
        let defaults = Defaults.inMemory()
        let seen = Seen()
        let watcher = Task { await withInjected(defaults) { await watchColour { seen.append($0) } } }
        // Write until the watcher has subscribed and seen a change.
        for _ in 0..<10_000 where seen.all.isEmpty {
            defaults.set("Green", forKey: "defaultColour")
            await Task.yield()
        }
        watcher.cancel()
        await watcher.value
        #expect(seen.all.first == "Green")
    }

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

/// What a callback saw, from any task.
final class Seen: Sendable {
    private let lock = NSLock()
    nonisolated(unsafe) private var elements: [String] = []  // only touched with `lock` held

    func append(_ element: String) { lock.withLock { elements.append(element) } }
    var all: [String] { lock.withLock { elements } }
}
