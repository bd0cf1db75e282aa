// SPDX-License-Identifier: Apache-2.0

import Ambient
import Logging

// doc: integrations-swift-log
// swift-log → Ambient: a swift-log logger whose handler writes to Ambient's Logger.current
// (or every swift-log logger: `LoggingSystem.bootstrap(AmbientLogHandler.init)` at startup).
let libraryLog = Logging.Logger(label: "library", factory: AmbientLogHandler.init)

func librarySync() {
    libraryLog.info("synced", metadata: ["items": "3"])
}

// Ambient → swift-log: Ambient's entries go to a swift-log logger (a request's, say),
// and still to a logger a test injected around this code.
func handleRequest(requestLog: Logging.Logger) {
    withInjected(Ambient.Logger.bridging(to: requestLog)) {
        Ambient.Logger.current.info("handled")
        librarySync()
    }
}

// In a test, both reach the test's logger:
func testLogging() -> [String] {
    let log = Ambient.Logger.capturing()
    withInjected(log) {
        handleRequest(requestLog: Logging.Logger(label: "request"))
    }
    return log.captured.map(\.message)  // ["handled", "synced"]
}
// doc-end
