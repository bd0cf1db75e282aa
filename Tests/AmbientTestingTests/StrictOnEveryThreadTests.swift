// SPDX-License-Identifier: Apache-2.0

import AmbientTesting
import Foundation
import XCTest

// Why: strict mode on every thread is the one way to hear of a read no scope reached; a test that asks for it must fail on such a read, and one that does not must not.

/// Read by these tests alone, on a thread no scope reached.
struct EveryThreadProbe: AmbientValue {
    static var defaultValue: EveryThreadProbe { EveryThreadProbe() }
}

/// Reads `EveryThreadProbe` on a thread of its own, which no scope reached, and waits for it.
private func readTheProbeOnAThreadOfItsOwn() {
    let done = DispatchSemaphore(value: 0)
    Thread {
        _ = EveryThreadProbe.current
        _ = EveryThreadProbe.current
        done.signal()
    }.start()
    done.wait()
}

/// `strictModeOnEveryThread`: the read on the thread fails the test method, once. (XCTest
/// runs one test method at a time, apart from Swift Testing's tests: the process-wide strict
/// mode hears of no one else's reads.)
final class StrictOnEveryThreadXCTestTests: FailureCapturingTestCase {
    @MainActor override var strictModeAllowing: [any Injectable.Type]? { [] }
    @MainActor override var strictModeOnEveryThread: Bool { true }

    override func invokeTest() {
        let messages = runCapturing()
        let probe = messages.filter {
            $0.contains("EveryThreadProbe.current was read but no EveryThreadProbe was injected")
        }
        XCTAssertEqual(probe.count, 1, "\(messages)")
    }

    func testAReadOnAThreadNoScopeReachedFailsTheTest() {
        readTheProbeOnAThreadOfItsOwn()
    }
}

/// Without it, strict mode keeps to the test's scope: the same read is not the test's failure.
final class StrictInTheScopeXCTestTests: FailureCapturingTestCase {
    @MainActor override var strictModeAllowing: [any Injectable.Type]? { [] }

    override func invokeTest() {
        let messages = runCapturing()
        XCTAssertFalse(messages.contains { $0.contains("EveryThreadProbe") }, "\(messages)")
    }

    func testAReadOnAThreadNoScopeReachedIsNotTheTestsFailure() {
        readTheProbeOnAThreadOfItsOwn()
    }
}
