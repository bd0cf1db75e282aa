// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation

// Why: what the article's blocks name and leave out: the model, a greeting by the hour, the
// error a retried operation throws, and a count that burns the CPU before it counts.

struct Reminder: Sendable {
    var title: String
    var due: Date
}

func greeting() -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar.component(.hour, from: Clock.current.now) < 12 ? "Good morning" : "Good afternoon"
}

struct Timeout: Error {}

/// A thread-safe count; `increment` burns the CPU first, as parsing a response would.
final class Counter: @unchecked Sendable {
    // @unchecked: `count` is only touched with `lock` held.
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }

    func increment(spinning duration: Duration) {
        let end = ContinuousClock.now + duration
        while ContinuousClock.now < end {}
        lock.withLock { count += 1 }
    }
}
