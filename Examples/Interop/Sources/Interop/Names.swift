// SPDX-License-Identifier: Apache-2.0

import Ambient
import Clocks  // swift-clocks (swift-dependencies re-exports it)
import Dependencies  // swift-dependencies
import Foundation
import Logging  // swift-log

#if canImport(os)
import os
#endif

// doc: names
// In a file that imports Ambient, `Clock` is Ambient's struct; the protocol is `Swift.Clock`.
func measure<C: Swift.Clock>(on clock: C, _ work: () -> Void) -> C.Duration {
    let start = clock.now
    work()
    return start.duration(to: clock.now)
}

// Where two imported modules declare a name, qualify it with the module.
func names() async throws -> [String] {
    let appLog = Ambient.Logger.current  // Ambient's ambient logger
    let serverLog = Logging.Logger(label: "server")  // swift-log's
    let testClock = Ambient.TestClock()  // Ambient's: drives Clock.current
    let pointfree = Clocks.TestClock()  // swift-clocks': a Swift.Clock<Duration>
    let wrapped = Ambient.Clock(pointfree)  // …which Ambient's Clock can wrap
    let ids = Ambient.UUIDGenerator.incrementing
    let dependencyIDs = Dependencies.UUIDGenerator.incrementing
    #if canImport(os)
    let systemLog = os.Logger(subsystem: "com.example.app", category: "sync")  // Apple platforms
    systemLog.info("names resolved")
    #endif
    return ["\(appLog)", serverLog.label, "\(testClock)", "\(wrapped)", "\(ids())", "\(dependencyIDs())"]
}
// doc-end
