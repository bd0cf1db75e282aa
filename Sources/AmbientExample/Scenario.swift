// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientTestClock  // the injected run's TestClock
import Foundation

// Why: the demo's scenario, run live and injected, so the difference is visible.

/// What one run of the legacy code saw.
struct Observations: Sendable, Equatable {
    var widget: String
    var reminderIds: [Int]
    var reminderDue: Date
    var reminderFired: Date
    var search: [String]
}

/// Runs the legacy code once, in whatever is injected around it. `advanceTime` is called
/// while a reminder is pending (a test clock moves time there; live, time moves itself).
func runScenario(
    reminderIn interval: Duration,
    advanceTime: @escaping @Sendable () async throws -> Void = {}
) async throws -> Observations {
    let widget = makeWidget()
    let scheduler = ReminderScheduler()
    let first = scheduler.schedule("stand up", in: interval)
    let second = scheduler.schedule("stretch", in: interval * 2)
    let waiting = Task { try await scheduler.waitFor(first) }  // inherits the scope
    try await advanceTime()
    let fired = try await waiting.value
    let search = await NoteManager().search("milk")
    return Observations(
        widget: widget, reminderIds: [first.id, second.id], reminderDue: first.due,
        reminderFired: fired, search: search)
}

/// The injected run: in-memory defaults, a manual clock the run advances, a capturing logger.
func runInjected() async throws -> (Observations, [Logger.Entry]) {
    let start = Date(timeIntervalSince1970: 1_700_000_000)  // 2023-11-14 22:13:20 UTC
    let testClock = TestClock(start: start)
    let defaults = Defaults.inMemory([
        SettingsKey.defaultColour: "Red",
        SettingsKey.searchLimit: 2,
    ])
    let log = Logger.capturing(level: .debug)
    let observations = try await withInjected(testClock.clock, defaults, log) {
        try await runScenario(reminderIn: .seconds(3_600)) {
            try await testClock.waitForSleepers()  // the reminder is asleep: time may move
            await testClock.advance(by: .seconds(3_600))
        }
    }
    return (observations, log.captured)
}

/// The live run: a real `UserDefaults`, the system clock, stderr.
///
/// The defaults are a throwaway suite rather than `UserDefaults.standard`, so running the
/// demo leaves no key behind on the machine: the suite is removed when the run ends.
func runLive() async throws -> Observations {
    let suiteName = "ambient-demo.\(ProcessInfo.processInfo.processIdentifier)"
    let defaults = try Defaults.suite(validating: suiteName)
    defer { UserDefaults(suiteName: suiteName)?.removePersistentDomain(forName: suiteName) }
    return try await withInjected(defaults) {
        try await runScenario(reminderIn: .milliseconds(200))
    }
}
