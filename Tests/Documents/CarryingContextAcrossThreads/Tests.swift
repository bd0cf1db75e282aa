// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation
import Testing

// Why: what the article's functions do, where the page only shows them (their blocks are
// compiled in Blocks.swift; these tests call them).

@Suite struct CarryingContextAcrossThreadsBehaviourTests {
    @Test func foundationsRunLaterAPIsSeeTheBoundContext() async {
        let injected = Date(timeIntervalSince1970: 0)
        let sightings = Sightings()
        let operations = OperationQueue()
        let center = NotificationCenter()
        withInjected(Clock.fixed(injected), SettingsSyncs(record: sightings.record)) {
            scheduleLegacyWork(on: operations, center: center)
        }
        center.post(name: .settingsChanged, object: nil)
        // Two operations, the observer (on the main queue) and the main-queue block.
        #expect(await sightings.all(count: 4) == Array(repeating: injected, count: 4))

        // The timer, started on a thread that runs its own run loop.
        let done = DispatchSemaphore(value: 0)
        Thread {
            withInjected(Clock.fixed(injected), SettingsSyncs(record: sightings.record)) {
                startSyncTimer()
                RunLoop.current.run(until: Date().addingTimeInterval(1))
            }
            done.signal()
        }.start()
        await Task.detached { done.wait() }.value
        #expect(await sightings.all(count: 5) == Array(repeating: injected, count: 5))
    }

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

/// What the legacy code saw, collected from whichever thread it ran on.
final class Sightings: Sendable {
    private let lock = NSLock()
    nonisolated(unsafe) private var dates: [Date] = []  // only touched with `lock` held

    func record(_ date: Date) { lock.withLock { dates.append(date) } }

    /// Waits (up to about ten seconds) for `count` sightings; returns what there is.
    func all(count: Int) async -> [Date] {
        for _ in 0..<10_000 {
            if lock.withLock({ dates.count }) >= count { break }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return lock.withLock { dates }
    }

    /// Waits (up to about ten seconds) for the first sighting.
    func first() async -> Date? {
        for _ in 0..<10_000 {
            if let date = lock.withLock({ dates.first }) { return date }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return nil
    }
}
