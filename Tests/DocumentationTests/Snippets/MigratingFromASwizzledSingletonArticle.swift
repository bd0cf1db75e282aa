// SPDX-License-Identifier: Apache-2.0

import Ambient
import Dispatch
import Foundation
import Testing

// Behaviour tests around blocks of Sources/Ambient/Ambient.docc/MigratingFromASwizzledSingleton.md (Tests/Documents/ compiles
// every block as written). Each region from `// doc: name` to `// doc-end` is one block, verbatim.
// Declarations sit inside article-specific types so their names stay unique in the module.

@Suite("Migrating article: the widget")
struct MigratingWidgetArticleTests {
    // doc: pinned
    final class SettingsCache: @unchecked Sendable {
        private let defaults = Defaults.current  // evaluated once, when the object is made
        func remember(_ value: Int) { defaults.set(value, forKey: "cached") }
    }
    // doc-end

    // doc: computed
    final class SettingsStore: @unchecked Sendable {
        private var defaults: Defaults { .current }  // looked up at each use
        func remember(_ value: Int) { defaults.set(value, forKey: "cached") }
    }
    // doc-end

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

    func makeWidget() -> String {
        (Defaults.current.string(forKey: "defaultColour") ?? "") + "Widget"
    }

    @Test func widgetUsesTheDefaultColour() {
        withInjected(Defaults.inMemory(["defaultColour": "Red"])) {
            #expect(makeWidget().hasPrefix("Red"))
        }
    }
}

/// The legacy code, untouched: compiled, never run (it would write to the real defaults).
enum MigratingLegacyReminders {
    // doc: reminder-id-before
    func nextReminderId() -> Int {
        let defaults = UserDefaults.standard
        let id = (defaults.object(forKey: "currentReminderId") as? Int).map { $0 + 1 } ?? 0
        defaults.set(id, forKey: "currentReminderId")
        return id
    }
    // doc-end
}

@Suite("Migrating article: one word changed")
struct MigratingOneWordArticleTests {
    // doc: reminder-id-one-word
    func nextReminderId() -> Int {
        let defaults = Defaults.current
        let id = (defaults.object(forKey: "currentReminderId") as? Int).map { $0 + 1 } ?? 0
        defaults.set(id, forKey: "currentReminderId")
        return id
    }
    // doc-end

    @Test func reminderIdsCountUpFromZero() {
        withInjected(Defaults.inMemory()) {
            #expect(nextReminderId() == 0)
            #expect(nextReminderId() == 1)
        }
    }
}

// doc: reminder-id-key
extension Defaults.Key<Int> {
    static var lastReminderId: Self { Self("currentReminderId", default: -1) }
}
// doc-end

@Suite("Migrating article: typed key")
struct MigratingTypedKeyArticleTests {
    // doc: reminder-id-after
    func nextReminderId() -> Int {
        Defaults.current.update(.lastReminderId) { $0 + 1 }  // atomic: no two callers get the same id
    }

    @Test func reminderIdsCountUpFromZero() {
        let defaults = Defaults.inMemory()
        withInjected(defaults) {
            #expect(nextReminderId() == 0)
            #expect(nextReminderId() == 1)
        }
        #expect(defaults.snapshot == ["currentReminderId": 1])
    }
    // doc-end
}

@Suite("Migrating article: the clock")
struct MigratingClockArticleTests {
    struct Reminder {
        var title: String
        var due: Date
    }

    enum Before {
        // doc: overdue-before
        func isOverdue(_ reminder: Reminder) -> Bool {
            reminder.due < Date()
        }
        // doc-end
    }

    // doc: overdue-after
    func isOverdue(_ reminder: Reminder) -> Bool {
        reminder.due < Clock.current.now
    }

    @Test func aReminderIsOverdueOnceItsDueDateHasPassed() {
        let reminder = Reminder(title: "call mum", due: Date(timeIntervalSince1970: 1_000))
        withInjected(Clock.fixed(reminder.due)) {
            #expect(!isOverdue(reminder))
        }
        withInjected(Clock.fixed(reminder.due.addingTimeInterval(1))) {
            #expect(isOverdue(reminder))
        }
    }
    // doc-end
}

@Suite("Migrating article: the logger")
struct MigratingLoggerArticleTests {
    final class AppLogger: Sendable {
        static let shared = AppLogger()
        func info(_ message: String) { print(message) }
    }

    enum Before {
        // doc: logger-before
        func finishSync(_ items: [String]) {
            AppLogger.shared.info("sync finished: \(items.count) items")
        }
        // doc-end
    }

    // doc: logger-after
    func finishSync(_ items: [String]) {
        Logger.current.info("sync finished", metadata: ["items": "\(items.count)"])
    }

    @Test func syncLogsTheItemCount() {
        let log = Logger.capturing()
        withInjected(log, Clock.fixed(Date(timeIntervalSince1970: 0))) {
            finishSync(["a", "b"])
        }
        #expect(log.captured.map(\.metadata) == [["items": "2"]])
        #expect(log.captured.first?.date == Date(timeIntervalSince1970: 0))
    }
    // doc-end
}

@Suite("Migrating article: process-wide")
struct MigratingProcessWideArticleTests {
    // doc: search-index
    final class SearchIndex: Sendable {
        private let queue = DispatchQueue(label: "SearchIndex")
        private let entries = ["buy milk", "milk the cow", "oat milk", "walk the dog"]

        func search(_ text: String, completion: @escaping @Sendable ([String]) -> Void) {
            queue.async { [entries] in
                let limit = Defaults.current.integer(forKey: "searchLimit")  // read on the private queue
                completion(Array(entries.filter { $0.contains(text) }.prefix(limit)))
            }
        }
    }
    // doc-end

    // doc: process-wide
    @Test func searchHonoursTheLimit() async {
        await withInjectedProcessWide(Defaults.inMemory(["searchLimit": 2])) {
            let found = await withCheckedContinuation { continuation in
                SearchIndex().search("milk") { continuation.resume(returning: $0) }
            }
            #expect(found == ["buy milk", "milk the cow"])
        }
    }
    // doc-end
}
