// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation

// Why: the legacy code the article's blocks call and leave out: the work handed to queues
// and threads, a completion-handler API, the notifications, the app's main-actor client, a
// value that travels as text, a manager that searches on its own queue, and fixed instants.

/// Where `syncSettings` reports the time it read: a test injects its own (it arrives only
/// where the context was carried).
struct SettingsSyncs: AmbientValue {
    var record: @Sendable (Date) -> Void
    static var defaultValue: SettingsSyncs { SettingsSyncs { _ in } }
}

/// Legacy work handed to queues, observers and timers: reads the ambient clock wherever it runs.
func syncSettings() { SettingsSyncs.current.record(Clock.current.now) }
func legacyWorker() {}
func legacyRefresh() async {}
func makeWidget() -> String { (Defaults.current.string(forKey: "defaultColour") ?? "") + "Widget" }

/// A legacy API that calls its completion handler on a queue of its own.
func fetchGreeting(completion: @escaping @Sendable (String?, (any Error)?) -> Void) {
    DispatchQueue.global().async { completion("hello", nil) }
}

extension Notification.Name {
    static let settingsChanged = Notification.Name("settingsChanged")
    static let checkoutDidSync = Notification.Name("checkoutDidSync")
}

let start = Date(timeIntervalSince1970: 0)
let injected = Date(timeIntervalSince1970: 1_000)
let noon = Date(timeIntervalSinceReferenceDate: 43_200)  // carried as "fixed:43200.0"

/// The app's analytics client, used from the main actor.
final class AnalyticsClient: MainActorAmbientValue {
    static let shared = AnalyticsClient()
    static var defaultValue: AnalyticsClient { shared }
    private(set) var events: [String] = []
    func track(_ event: String) { events.append(event) }
}

/// A value that travels as its text.
struct Note: PropagatableValue {
    var text: String
    static var defaultValue: Note { Note(text: "receiver's own") }
    static var propagationKey: String { "note" }
    var propagationEncoding: String? { text }
    init(text: String) { self.text = text }
    init(propagationEncoding: String) { text = propagationEncoding }
}

/// String preferences, made ambient.
struct Preferences: AmbientValue {
    var values: [String: String]
    static var defaultValue: Preferences { Preferences(values: [:]) }
}

/// A legacy manager that searches on its own private queue, with no way to pass it anything.
final class NoteManager: Sendable {
    private let queue = DispatchQueue(label: "NoteManager")
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
