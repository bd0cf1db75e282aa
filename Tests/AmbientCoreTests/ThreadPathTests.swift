// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Dispatch
import Foundation
import Testing
import XCTest

/// The rows of the threads table for Foundation's run-later APIs, checked unbound: what each
/// sees when nobody carries the context (the bound forms are the article's snippet, run by
/// DocumentationTests).
@Suite("Thread paths: what inherits without bind")
struct ThreadPathTests {
    /// Runs `start` inside a scope injecting `Tag("injected")` and returns the `Tag` that
    /// the work it schedules saw.
    func seen(_ start: @escaping (@escaping @Sendable (String) -> Void) -> Void) async -> String {
        await withCheckedContinuation { continuation in
            let once = Locked(false)
            withInjected(Tag("injected")) {
                start { name in
                    if !once.withLock({
                        let first = !$0
                        $0 = true
                        return first
                    }) {
                        return
                    }
                    continuation.resume(returning: name)
                }
            }
        }
    }

    @Test func operationQueuesDoNotInherit() async {
        let queue = OperationQueue()
        #expect(await seen { report in queue.addOperation { report(Tag.current.name) } } == "default")
        #expect(await seen { report in queue.addOperation(BlockOperation { report(Tag.current.name) }) } == "default")
    }

    @Test func anObserverWithNoQueueRunsInThePostersScope() {
        let center = NotificationCenter()
        let seen = Locked("")
        let observer = center.addObserver(forName: .init("ambient.poster"), object: nil, queue: nil) { _ in
            seen.set(Tag.current.name)
        }
        defer { center.removeObserver(observer) }
        withInjected(Tag("poster")) { center.post(name: .init("ambient.poster"), object: nil) }
        #expect(seen.get() == "poster")
    }

    @Test func anObserverOnTheMainQueueDoesNotInherit() async {
        let center = NotificationCenter()
        let name = Notification.Name("ambient.main")
        let result = await seen { report in
            _ = center.addObserver(forName: name, object: nil, queue: .main) { _ in report(Tag.current.name) }
            center.post(name: name, object: nil)
        }
        #expect(result == "default")
    }

    @Test func theMainQueueDoesNotInheritUnderSwiftTesting() async {
        #expect(await seen { report in DispatchQueue.main.async { report(Tag.current.name) } } == "default")
    }

    #if os(Linux)
    @Test func aTimerOnTheMainRunLoopNeverFiresInASwiftTestingTest() async throws {
        let fired = Locked(false)
        await MainActor.run {
            RunLoop.main.add(Timer(timeInterval: 0.01, repeats: false) { _ in fired.set(true) }, forMode: .common)
        }
        try await Task.sleep(for: .milliseconds(300))
        #expect(!fired.get(), "nothing runs the main run loop in a Swift Testing test")
    }
    #endif
}

/// XCTest runs a synchronous test on the main thread, inside the test's scope, and its
/// `wait(for:)` drains the main queue there: main-queue work inherits, which is why a test
/// that passes under XCTest without `bind` sees live values once ported to Swift Testing.
final class MainQueueUnderXCTestTests: XCTestCase {
    func testTheMainQueueInheritsWhileTheTestWaits() {
        let done = expectation(description: "main queue")
        let seen = Locked("")
        withInjected(Tag("xctest")) {
            DispatchQueue.main.async {
                seen.set(Tag.current.name)
                done.fulfill()
            }
            wait(for: [done], timeout: 10)
        }
        XCTAssertEqual(seen.get(), "xctest")
    }
}
