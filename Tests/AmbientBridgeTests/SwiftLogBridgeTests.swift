// SPDX-License-Identifier: Apache-2.0

#if SwiftLog
import Ambient
import Foundation
import Logging
import Testing

/// A swift-log handler that records what reaches it, for the Ambient → swift-log direction.
final class RecordingLogHandlerStore: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [LogEvent] = []

    func append(_ event: LogEvent) {
        lock.withLock { recorded.append(event) }
    }

    var events: [LogEvent] {
        lock.withLock { recorded }
    }
}

struct RecordingLogHandler: LogHandler {
    let store: RecordingLogHandlerStore
    var logLevel: Logging.Logger.Level
    var metadata: Logging.Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logging.Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        store.append(event)
    }

    static func logger(level: Logging.Logger.Level = .trace) -> (Logging.Logger, RecordingLogHandlerStore) {
        let store = RecordingLogHandlerStore()
        let logger = Logging.Logger(label: "recorded") { _ in RecordingLogHandler(store: store, logLevel: level) }
        return (logger, store)
    }
}

struct Failure: Error, CustomStringConvertible {
    var description: String { "disk full" }
}

@Suite("swift-log → Ambient: AmbientLogHandler")
struct AmbientLogHandlerTests {
    let swiftLog = Logging.Logger(label: "sync", factory: AmbientLogHandler.init)

    @Test func entriesReachTheInjectedLoggerWithLevelMessageMetadataAndLocation() {
        let log = Logger.capturing()
        let line: UInt = #line + 3
        let date = Date(timeIntervalSince1970: 1_000)
        withInjected(log, Clock.fixed(date)) {
            swiftLog.notice("synced", metadata: ["items": "3", "nested": ["a": "1"], "list": ["x", "y"]])
        }
        let entry = log.captured.first
        #expect(log.captured.count == 1)
        #expect(entry?.level == .notice)
        #expect(entry?.message == "synced")
        #expect(entry?.metadata == ["items": "3", "nested": #"["a": "1"]"#, "list": #"["x", "y"]"#])
        #expect(entry?.fileID == "AmbientBridgeTests/SwiftLogBridgeTests.swift")
        #expect(entry?.function == "entriesReachTheInjectedLoggerWithLevelMessageMetadataAndLocation()")
        #expect(entry?.line == line)
        #expect(entry?.date == date)
    }

    @Test func everyLevelMapsToTheSameName() {
        let log = Logger.capturing()
        withInjected(log) {
            for level in Logging.Logger.Level.allCases {
                swiftLog.log(level: level, "\(level)")
            }
        }
        #expect(log.captured.map(\.level) == Ambient.Logger.Level.allCases)
        #expect(log.captured.map(\.message) == Logging.Logger.Level.allCases.map { "\($0)" })
        for level in Ambient.Logger.Level.allCases {
            #expect(Ambient.Logger.Level(level.swiftLogLevel) == level)
            #expect("\(level.swiftLogLevel)" == "\(level)")
        }
    }

    @Test func theInjectedLoggersLevelFilters() {
        let log = Logger.capturing(level: .warning)
        withInjected(log) {
            swiftLog.debug("d")
            swiftLog.info("i")
            swiftLog.warning("w")
            swiftLog.critical("c")
        }
        #expect(log.captured.map(\.message) == ["w", "c"])
    }

    @Test func handlerMetadataThenProviderThenEntryThenError() {
        var logger = Logging.Logger(label: "merge") {
            AmbientLogHandler(label: $0, metadataProvider: .init { ["provided": "p", "shared": "provider"] })
        }
        logger[metadataKey: "handler"] = "h"
        logger[metadataKey: "shared"] = "handler"
        let log = Logger.capturing()
        withInjected(log.with(metadata: ["scope": "s"])) {
            logger.error("failed", error: Failure(), metadata: ["own": "o"])
            logger.info("overridden", metadata: ["shared": "entry"])
        }
        #expect(
            log.captured.first?.metadata
                == [
                    "scope": "s", "handler": "h", "provided": "p", "shared": "provider", "own": "o",
                    "error": "disk full",
                ])
        #expect(log.captured.last?.metadata["shared"] == "entry")
    }

    @Test func theHandlerIsAValueAsSwiftLogRequires() {
        var first = AmbientLogHandler(label: "a")
        first.logLevel = .error
        first[metadataKey: "k"] = "1"
        var second = first
        second.logLevel = .debug
        second[metadataKey: "k"] = "2"
        #expect(first.logLevel == .error)
        #expect(first[metadataKey: "k"] == "1")
        #expect(second[metadataKey: "k"] == "2")
        #expect("\(first)" == "AmbientLogHandler(\"a\")")
    }

    @Test func swiftLogsOwnLevelDropsEntriesBeforeTheyAreBuilt() {
        var quiet = swiftLog
        quiet.logLevel = Logging.Logger.Level.error
        let built = Counter()
        let log = Logger.capturing()
        withInjected(log) {
            quiet.info("\(built.increment())")
            quiet.error("kept")
        }
        #expect(built.value == 0)
        #expect(log.captured.map(\.message) == ["kept"])
    }

    @Test func swiftLogsTaskLocalLoggerWritesWhereverAmbientsIs() async {
        // `withLogger` binds swift-log's `Logging.Logger.current`; `withInjected` binds
        // Ambient's. A swift-log logger with this handler writes into Ambient's, read at
        // each entry.
        let log = Logger.capturing()
        await withLogger(swiftLog) { _ in
            await withInjected(log) {
                Logging.Logger.current.info("from swift-log's current")
                await Task { Logging.Logger.current.info("from a child task") }.value
            }
            Logging.Logger.current.info("outside Ambient's scope: to Logger.live, not captured")
        }
        #expect(log.captured.map(\.message) == ["from swift-log's current", "from a child task"])
    }

    @Test func parallelTestsEachCaptureOnlyTheirOwn() async {
        let logs = (0..<64).map { _ in Logger.capturing() }
        await withTaskGroup(of: Void.self) { group in
            for (index, log) in logs.enumerated() {
                group.addTask {
                    await withInjected(log) {
                        for entry in 0..<20 {
                            swiftLog.info("\(index)", metadata: ["entry": "\(entry)"])
                            await Task.yield()
                        }
                    }
                }
            }
        }
        for (index, log) in logs.enumerated() {
            #expect(log.captured.map(\.message) == Array(repeating: "\(index)", count: 20))
        }
    }
}

@Suite("swift-log bridges under load")
struct SwiftLogBridgeStressTests {
    @Test func threadsEachCaptureOnlyTheirOwnBothWays() {
        // 16 threads (more than the cores), each in its own scope, logging through swift-log
        // into Ambient and through a round-trip bridge back out: no entry crosses threads,
        // none is lost, none loops.
        let swiftLog = Logging.Logger(label: "stress", factory: AmbientLogHandler.init)
        let logs = (0..<16).map { _ in Ambient.Logger.capturing() }
        DispatchQueue.concurrentPerform(iterations: logs.count) { index in
            withInjected(logs[index]) {
                for entry in 0..<500 {
                    if entry.isMultiple(of: 10) {
                        withInjected(Ambient.Logger.bridging(to: swiftLog)) {
                            Ambient.Logger.current.debug("\(index)")
                        }
                    } else {
                        swiftLog.debug("\(index)")
                    }
                }
            }
        }
        for (index, log) in logs.enumerated() {
            #expect(log.captured.map(\.message) == Array(repeating: "\(index)", count: 500))
        }
    }
}

@Suite("Ambient → swift-log: SwiftLogSink and Logger.bridging(to:)")
struct SwiftLogSinkTests {
    @Test func entriesReachSwiftLogWithLevelMessageMetadataAndLocation() {
        let (swiftLog, store) = RecordingLogHandler.logger()
        let line: UInt = #line + 2
        withInjected(Ambient.Logger(swiftLog: swiftLog).with(metadata: ["request": "42"])) {
            Logger.current.warning("slow", metadata: ["ms": "900"])
        }
        let event = store.events.first
        #expect(store.events.count == 1)
        #expect(event?.level == .warning)
        #expect(event?.message.description == "slow")
        #expect(event?.metadata == ["request": .string("42"), "ms": .string("900")])
        #expect(event?.file == "AmbientBridgeTests/SwiftLogBridgeTests.swift")
        #expect(event?.function == "entriesReachSwiftLogWithLevelMessageMetadataAndLocation()")
        #expect(event?.line == line)
        #expect(event?.source == "AmbientBridgeTests")
    }

    @Test func theSwiftLogLoggersLevelIsTheBridgesLevel() {
        let (swiftLog, store) = RecordingLogHandler.logger(level: .notice)
        let bridged = Ambient.Logger(swiftLog: swiftLog)
        #expect(bridged.level == .notice)
        withInjected(bridged) {
            for level in Ambient.Logger.Level.allCases {
                Logger.current.log(level, "\(level)")
            }
        }
        #expect(store.events.map(\.level) == [.notice, .warning, .error, .critical])
    }

    @Test func bridgingWithNothingInjectedWritesToSwiftLogOnly() {
        let (swiftLog, store) = RecordingLogHandler.logger()
        let bridged = Logger.bridging(to: swiftLog)
        #expect("\(bridged.sink)" == "swiftLog(\"recorded\")")
        withInjected(bridged) { Logger.current.info("hello") }
        #expect(store.events.map(\.message.description) == ["hello"])
    }

    @Test func bridgingNeverHidesATestsInjectedLogger() {
        let (swiftLog, store) = RecordingLogHandler.logger(level: .info)
        let test = Logger.capturing(level: .debug)
        withInjected(test.with(metadata: ["test": "t"])) {
            // The server's middleware, inside the test's scope:
            withInjected(Logger.bridging(to: swiftLog)) {
                Logger.current.trace("dropped by both")
                Logger.current.debug("the test's level lets it through")
                Logger.current.info("both")
            }
        }
        #expect(test.captured.map(\.message) == ["the test's level lets it through", "both"])
        #expect(test.captured.last?.metadata == ["test": "t"])
        #expect(store.events.map(\.message.description) == ["both"])
    }

    @Test func aNestedBridgeReplacesTheOuterBridgeAndKeepsTheTestsLogger() {
        let (outer, outerStore) = RecordingLogHandler.logger()
        let (inner, innerStore) = RecordingLogHandler.logger()
        let test = Logger.capturing()
        withInjected(test) {
            withInjected(Logger.bridging(to: outer)) {
                withInjected(Logger.bridging(to: inner)) {
                    Logger.current.info("once each")
                }
            }
        }
        #expect(test.captured.map(\.message) == ["once each"])
        #expect(outerStore.events.isEmpty)
        #expect(innerStore.events.map(\.message.description) == ["once each"])
    }

    @Test func aDiscardingLoggerIsNotKeptAlongside() {
        let (swiftLog, store) = RecordingLogHandler.logger()
        withInjected(Logger.discarding) {
            withInjected(Logger.bridging(to: swiftLog)) { Logger.current.info("to swift-log") }
        }
        #expect(store.events.count == 1)
    }

    @Test func anEntryThatCameFromAmbientDoesNotGoRoundAgain() {
        // swift-log bootstrapped with AmbientLogHandler, and a middleware bridging to a
        // swift-log logger: the entry leaves Ambient through the sink, reaches the
        // handler, and stops there instead of looping.
        let roundTrip = Logging.Logger(label: "round-trip", factory: AmbientLogHandler.init)
        let test = Logger.capturing()
        withInjected(test) {
            withInjected(Logger.bridging(to: roundTrip)) {
                Logger.current.info("once")
            }
        }
        #expect(test.captured.map(\.message) == ["once"])
        // With nothing injected the handler writes it to Logger.live (standard error): no
        // recursion either.
        withInjected(Ambient.Logger(swiftLog: roundTrip)) { Logger.current.debug("below live's level") }
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }

    var value: Int { lock.withLock { count } }
}
#endif
