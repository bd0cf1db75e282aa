// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientTesting
import Foundation
import Testing

#if ONE_FILE_PORT
import LegacyKitShadowed
#else
import LegacyKit
#endif

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The legacy service's six singletons, replaced in one main-actor test (this target is
/// main-actor by default): a region, an environment, a file system in memory, a center of
/// the test's own, a stub network that fails once, and a main queue a TestClock drives.
@Suite
struct ReceiptSyncTests {
    @Test func aFailedSyncRetriesFiveSecondsLaterAndCachesTheReceipts() async throws {
        let testClock = TestClock()
        let attempts = Shared(0)
        let network = NetworkSession.stub { request in
            guard request.url?.absoluteString == "https://staging.example.com/receipts" else { return nil }
            let attempt = attempts.update { count -> Int in
                count += 1
                return count
            }
            return .response(status: attempt == 1 ? 503 : 200, headers: [:], body: Data("[1,2,3]".utf8))
        }
        let files = FileSystem.inMemory()
        let notifications = Notifications.isolated()
        let synced = Shared(0)
        let token = notifications.addObserver(forName: .receiptsSynced) { _ in synced.update { $0 += 1 } }
        defer { notifications.removeObserver(token) }
        let outcome = Shared<Result<Int, any Error>?>(nil)
        withInjected(
            ProcessEnvironment(variables: ["RECEIPTS_URL": "https://staging.example.com/receipts"]),
            network, files
        ) {
            withInjected(notifications, MainQueue.driven(by: testClock)) {
                ReceiptSync.shared.sync { result in outcome.update { $0 = result } }
            }
        }
        // The first fetch failed; its retry is asleep on the test clock for 5 s.
        try await testClock.waitForSleepers()
        #expect(attempts.get() == 1)
        await testClock.advance(by: .seconds(4))
        #expect(attempts.get() == 1)
        await testClock.advance(by: .seconds(1))
        try await waitUntil { outcome.get() != nil }
        #expect(try outcome.get()?.get() == 7)
        #expect(attempts.get() == 2)
        #expect(synced.get() == 1)
        #expect(files.contents(atPath: "/Library/Caches/receipts.json") == Data("[1,2,3]".utf8))
        #expect(network.requests.count == 2)
    }

    @Test func theLabelIsTheSameOnEveryMachine() {
        let label = withInjected(Region.fixed(locale: Locale(identifier: "en_US"), timeZone: .gmt)) {
            ReceiptSync.shared.syncedLabel(at: Date(timeIntervalSince1970: 1_700_000_000))
        }
        #expect(label.replacingOccurrences(of: "\u{202F}", with: " ") == "Synced Nov 14, 2023 at 10:13 PM")
    }

    /// The completion handler runs on a background queue once the stub has answered.
    func waitUntil(_ condition: @escaping @Sendable () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(1)) }
    }
}

/// A value tests share with handlers on other threads (the package's platforms predate
/// `Synchronization.Mutex`). `nonisolated`: this target is main-actor by default.
nonisolated final class Shared<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func get() -> Value {
        lock.withLock { value }
    }

    @discardableResult
    func update<R>(_ body: (inout Value) -> R) -> R {
        lock.withLock { body(&value) }
    }
}
