// SPDX-License-Identifier: Apache-2.0

// Legacy-style code, written the way such code is written: globals read deep inside, no
// parameters threaded through. The only change from the original is `Type.current` where
// it used to say `UserDefaults.standard`, `Date()` or `print`.
import Ambient
import Dispatch
import Foundation

// Why: the example must look like the code users bring: globals read deep inside.

/// The keys this code keeps in the user defaults.
enum SettingsKey {
    /// The last reminder id handed out.
    static let currentReminderId = "ambient-demo.currentReminderId"
    /// How many notes a search returns at most (3 when unset).
    static let searchLimit = "ambient-demo.searchLimit"
    /// The colour widgets are made in.
    static let defaultColour = "ambient-demo.defaultColour"
}

/// The classic: a widget in the user's default colour.
func makeWidget() -> String {
    (Defaults.current.string(forKey: SettingsKey.defaultColour) ?? "") + "Widget"
}

/// Held across `nextReminderId`'s read and write.
private let reminderIdLock = NSLock()

/// The other classic: the next reminder id, race-free (the lock makes the read-modify-write
/// one step, so no two callers get the same id).
func nextReminderId() -> Int {
    reminderIdLock.lock()
    let id = Defaults.current.integer(forKey: SettingsKey.currentReminderId) + 1
    Defaults.current.set(id, forKey: SettingsKey.currentReminderId)
    reminderIdLock.unlock()
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
    /// the `searchLimit` setting (3 when unset) of them. The queue does not inherit the caller's
    /// injected values, so the completion is bound to them (`InjectionContext.bind`).
    func search(_ text: String, completion: @escaping @Sendable ([String]) -> Void) {
        let notes = notes
        let search = InjectionContext.current.bind {
            let limit = Defaults.current.object(forKey: SettingsKey.searchLimit) as? Int ?? 3
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
