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

/// The archiver's background work, on four kinds of queue, sees the test's values and is
/// waited for without an expectation or a sleep.
@Suite
struct ReceiptArchiverTests {
    @Test func everyHopRunsInTheTestsScopeAndTheTestWaitsForAllOfThem() async throws {
        let background = BackgroundQueue.tracked()
        let files = FileSystem.inMemory()
        let logger = Logger.capturing()
        let defaults = Defaults.inMemory(["archiver.pending": 2])
        let noon = Clock.fixed(Date(timeIntervalSince1970: 43_200))
        let pending = withInjected(background, files, logger, defaults, noon) {
            ReceiptArchiver.shared.archive("r1") {}
            ReceiptArchiver.shared.pruneInBackground()
            return ReceiptArchiver.shared.pendingCount()
        }
        await background.finished()
        #expect(pending == 2)
        #expect(files.contents(atPath: "/Library/Caches/r1.archive") == Data("r1@43200".utf8))
        #expect(logger.captured.map(\.message) == ["archived r1"])
        #expect(defaults.double(forKey: "archiver.pruned") == 43_200)
    }

    @Test func theRetryRunsWhenTheTestClockGetsThere() async {
        let testClock = TestClock()
        let defaults = Defaults.inMemory()
        withInjected(BackgroundQueue.driven(by: testClock), defaults) { ReceiptArchiver.shared.retryLater() }
        await testClock.advance(by: .seconds(59))
        #expect(!defaults.bool(forKey: "archiver.retried"))
        await testClock.advance(by: .seconds(1))
        #expect(defaults.bool(forKey: "archiver.retried"))
    }
}
