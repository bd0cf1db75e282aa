// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientTesting
import Dispatch
import Foundation
import Testing

// @testable: the demo's legacy code is an executable's internal code, as a user's app is.
@testable import AmbientExample

/// The demo's legacy code, tested the way a user would test theirs: fakes injected, strict
/// mode on so nothing reaches a real singleton.
@Suite(
    .strict(),
    .injecting(Clock.fixed(Date(timeIntervalSince1970: 0))),
    .injecting(fresh: { (Defaults.inMemory(), Logger.capturing()) })  // a store and a log per test
)
struct LegacyCodeTests {
    @Test(.injecting(Defaults.inMemory([SettingsKey.defaultColour: "Red"])))
    func makeWidgetUsesTheDefaultColour() {
        #expect(makeWidget() == "RedWidget")
    }

    @Test func reminderIdsNeverRepeatUnderConcurrency() {
        let ids = Locked<[Int]>([])
        let context = InjectionContext.current
        DispatchQueue.concurrentPerform(iterations: 5_000) { _ in
            let id = context.run { nextReminderId() }
            ids.withLock { $0.append(id) }
        }
        #expect(ids.get().sorted() == Array(1...5_000))
    }

    @Test func aReminderIsDueFromTheCurrentTime() {
        let reminder = ReminderScheduler().schedule("stand up", in: .seconds(90))
        #expect(reminder.due == Date(timeIntervalSince1970: 90))
        #expect(Logger.current.captured.map(\.message).contains("scheduled"))
    }

    @Test func theSearchOnAPrivateQueueSeesTheInjectedLimit() async {
        let found = await withInjected(Defaults.inMemory([SettingsKey.searchLimit: 1])) {
            await NoteManager().search("milk")
        }
        #expect(found == ["buy milk"])
    }

    @Test func theInjectedRunSeesOnlyFakes() async throws {
        let (observations, entries) = try await runInjected()
        #expect(observations.widget == "RedWidget")
        #expect(observations.reminderIds == [1, 2])
        #expect(observations.reminderFired == Date(timeIntervalSince1970: 1_700_003_600))
        #expect(observations.search == ["buy milk", "milk the cow"])
        #expect(entries.count == 6)
    }
}
