// SPDX-License-Identifier: Apache-2.0

// Legacy-style code, written the way such code is written: globals read deep inside, no
// parameters threaded through. The only change from the original is `Type.current` where
// it used to say `UserDefaults.standard`, `Date()` or `print`.
import Ambient
import Dispatch
import Foundation

// Why: the example must look like the code users bring: globals read deep inside.

extension Defaults.Key<Int> {
    /// The last reminder id handed out.
    static var currentReminderId: Self { Self("ambient-demo.currentReminderId", default: 0) }
    /// How many notes a search returns at most.
    static var searchLimit: Self { Self("ambient-demo.searchLimit", default: 3) }
}

extension Defaults.Key<String> {
    /// The colour widgets are made in.
    static var defaultColour: Self { Self("ambient-demo.defaultColour", default: "") }
}

/// The classic: a widget in the user's default colour.
func makeWidget() -> String {
    Defaults.current[.defaultColour] + "Widget"
}

/// The other classic: the next reminder id, race-free (an atomic read-modify-write).
func nextReminderId() -> Int {
    let id = Defaults.current.update(.currentReminderId) { $0 + 1 }
    Logger.current.debug("handed out reminder id", metadata: ["id": "\(id)"])
    return id
}

/// A reminder with a due date.
struct Reminder: Sendable, Equatable {
    var id: Int
    var title: String
    var due: Date
}

/// Schedules reminders from the current time and waits for them on the ambient clock.
struct ReminderScheduler: Sendable {
    /// A reminder due `interval` from now.
    func schedule(_ title: String, in interval: Duration) -> Reminder {
        let reminder = Reminder(
            id: nextReminderId(), title: title, due: Clock.current.now.addingTimeInterval(interval.seconds))
        Logger.current.info("scheduled", metadata: ["title": title, "id": "\(reminder.id)"])
        return reminder
    }

    /// Sleeps until `reminder` is due, then returns the time it fired.
    func waitFor(_ reminder: Reminder) async throws -> Date {
        let remaining = reminder.due.timeIntervalSince(Clock.current.now)
        if remaining > 0 {
            try await Clock.current.sleep(for: .nanoseconds(Int64(remaining * 1e9)))
        }
        let fired = Clock.current.now
        Logger.current.notice("reminder fired", metadata: ["title": reminder.title])
        return fired
    }
}

/// Searches notes on its own private queue, as legacy managers do.
final class NoteManager: Sendable {
    private let queue = DispatchQueue(label: "NoteManager.search")
    private let notes = ["buy milk", "milk the cow", "call mum", "milkshake recipe", "oat milk", "walk"]

    /// Calls `completion` on the manager's queue with the notes matching `text`, at most
    /// `Defaults.current[.searchLimit]` of them. The queue does not inherit the caller's
    /// injected values, so the completion is bound to them (`InjectionContext.bind`).
    func search(_ text: String, completion: @escaping @Sendable ([String]) -> Void) {
        let notes = notes
        let search = InjectionContext.current.bind {
            let limit = Defaults.current[.searchLimit]
            let found = Array(notes.filter { $0.contains(text) }.prefix(limit))
            Logger.current.info("searched", metadata: ["text": text, "found": "\(found.count)"])
            completion(found)
        }
        queue.async(execute: search)
    }

    /// `search`, waited for.
    func search(_ text: String) async -> [String] {
        await withCheckedContinuation { continuation in
            search(text) { continuation.resume(returning: $0) }
        }
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
