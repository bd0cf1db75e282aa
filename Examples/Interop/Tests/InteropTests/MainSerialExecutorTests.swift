// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientTestClock
import ConcurrencyExtras
import Foundation
import Testing

/// A `TestClock` beside swift-concurrency-extras' `withMainSerialExecutor`, which saves
/// whether *a* global-enqueue hook is installed, installs its own for its block, and on the
/// way out installs its own again (when one was there before) or none: either way the
/// `TestClock`'s hook is gone, and woken work would no longer be counted. The clock puts
/// its hook back before every `advance`. Each scenario runs in a fresh process (an exit
/// test), as the hook is the process's: a loop that does 10 ms of work after each of 5
/// wake-ups, driven by one `advance`, must get through all 5.
@Suite("TestClock beside withMainSerialExecutor")
struct MainSerialExecutorTests {
    @Test func blockUsedBeforeTheFirstTestClock() async {
        await #expect(processExitsWith: .success) {
            withMainSerialExecutor {}  // the synchronous form: sets and restores the hook the same way
            try await expectAllWakeUps(TestClock())
        }
    }

    @Test func testClockMadeInsideTheBlock() async {
        await #expect(processExitsWith: .success) {
            let testClock = await makeAndDriveInsideTheBlock()
            try await expectAllWakeUps(testClock)  // after the block: it removed every hook
        }
    }

    @Test func testClockMadeFirstAndTheBlockUsedLater() async {
        await #expect(processExitsWith: .success) {
            let testClock = TestClock()
            try await expectAllWakeUps(testClock)
            await withMainSerialExecutor {
                try? await expectAllWakeUps(testClock)  // inside: the block's hook replaced the clock's
            }
            try await expectAllWakeUps(testClock)  // after: the block installed its own again
        }
    }
}

@MainActor
func makeAndDriveInsideTheBlock() async -> TestClock {
    var made: TestClock?
    await withMainSerialExecutor {
        let testClock = TestClock()
        made = testClock
        try? await expectAllWakeUps(testClock)
    }
    return made!
}

/// Drives a loop that does 10 ms of work after each of 5 wake-ups with one `advance`, and
/// exits the process with status 1, naming what happened, unless all 5 were processed.
func expectAllWakeUps(_ testClock: TestClock) async throws {
    let processed = Counter()
    let loop = Task.detached {
        try await withInjected(testClock.clock) {
            for _ in 0..<5 {
                try await Clock.current.sleep(for: .seconds(1))
                let start = ContinuousClock.now
                while ContinuousClock.now - start < .milliseconds(10) {}  // parse a response
                processed.increment()
            }
        }
    }
    try await testClock.waitForSleepers()
    await testClock.advance(by: .seconds(5))
    let count = processed.value
    loop.cancel()
    _ = try? await loop.value
    if count != 5 {
        FileHandle.standardError.write(Data("\(count) of 5 wake-ups processed in one advance\n".utf8))
        exit(1)
    }
}

final class Counter: @unchecked Sendable {
    // @unchecked: `count` is only touched with `lock` held.
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
