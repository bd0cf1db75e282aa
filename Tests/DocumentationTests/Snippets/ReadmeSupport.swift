// SPDX-License-Identifier: Apache-2.0

// What the README's snippets lean on without showing, and tests for the snippets that are
// functions rather than tests.
import Ambient
import Dispatch
import Foundation
import Testing

/// A remote-configuration singleton, as legacy code has.
final class RemoteConfig: Sendable {
    static let shared = RemoteConfig()
    let newCheckout = false
}

/// A payment gateway singleton that must never run in a test.
final class PaymentGateway: Sendable {
    static let shared = PaymentGateway()
    func charge(_ cents: Int) -> Bool { cents > 0 }
}

/// Midday, 2 January 1970 UTC.
let noon = Date(timeIntervalSince1970: 86_400 + 43_200)

/// Waits a minute on the ambient clock and returns the time it woke.
func waitForNextReminder() async throws -> Date {
    try await Clock.current.sleep(for: .seconds(60))
    return Clock.current.now
}

/// String preferences, made ambient.
struct Preferences: AmbientValue {
    var values: [String: String]
    static var defaultValue: Preferences { Preferences(values: [:]) }
}

/// A legacy manager that searches on its own private queue, with no way to pass it anything.
final class NoteManager: Sendable {
    private let queue = DispatchQueue(label: "README.NoteManager")
    private let notes = ["buy milk", "milk the cow", "oat milk", "milkshake", "milk run", "milk tea", "walk"]

    func search(_ text: String) async -> [String] {
        await withCheckedContinuation { continuation in
            queue.async { [notes] in
                let limit = Preferences.current.values["searchLimit"].flatMap { Int($0) } ?? 100
                continuation.resume(returning: Array(notes.filter { $0.contains(text) }.prefix(limit)))
            }
        }
    }
}

@Suite("README snippets that are not tests")
struct ReadmeFunctionTests {
    @Test func loadInBackgroundCarriesTheInjectedDefaults() async {
        let widget = await withInjected(Defaults.inMemory(["defaultColour": "Blue"])) {
            await withCheckedContinuation { continuation in
                loadInBackground { continuation.resume(returning: $0) }
            }
        }
        #expect(widget == "BlueWidget")
    }

    @Test func useDarkModeStoresTheTheme() {
        let defaults = Defaults.inMemory()
        withInjected(defaults) { useDarkMode() }
        #expect(defaults.snapshot == ["theme": "dark"])
    }

    @Test func watchColourSeesChanges() async {
        let defaults = Defaults.inMemory()
        let seen = Recorded<String>()
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

/// A lock-protected list, for fakes that record from any task or thread (the "Writing Your
/// Own Ambient Value" article's snippets use it too).
final class Recorded<Element: Sendable>: Sendable {
    private let lock = NSLock()
    nonisolated(unsafe) private var elements: [Element] = []  // only touched with `lock` held

    func append(_ element: Element) { lock.withLock { elements.append(element) } }
    var all: [Element] { lock.withLock { elements } }
}
