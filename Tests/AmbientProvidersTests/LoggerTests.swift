// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation
import Testing

@Suite("Logger")
struct LoggerTests {
    @Test func capturingRecordsLevelMessageMetadataAndLocation() {
        let log = Logger.capturing()
        let line: UInt = #line + 2
        withInjected(log, Clock.fixed(Date(timeIntervalSince1970: 0))) {
            Logger.current.info("sync started", metadata: ["items": "3"])
        }
        let entry = log.captured.first
        #expect(log.captured.count == 1)
        #expect(entry?.level == .info)
        #expect(entry?.message == "sync started")
        #expect(entry?.metadata == ["items": "3"])
        #expect(entry?.fileID == "AmbientProvidersTests/LoggerTests.swift")
        #expect(entry?.function == "capturingRecordsLevelMessageMetadataAndLocation()")
        #expect(entry?.line == line)
        #expect(entry?.date == Date(timeIntervalSince1970: 0))
        #expect(
            entry?.description
                == "1970-01-01T00:00:00Z [info] sync started items=3 (AmbientProvidersTests/LoggerTests.swift:\(line))")
    }

    @Test func everyLevelHasItsMethodAndLevelsFilter() {
        let log = Logger.capturing(level: .notice)
        withInjected(log) {
            let logger = Logger.current
            logger.trace("t")
            logger.debug("d")
            logger.info("i")
            logger.notice("n")
            logger.warning("w")
            logger.error("e")
            logger.critical("c")
        }
        #expect(log.captured.map(\.message) == ["n", "w", "e", "c"])
        #expect(log.captured.map(\.level) == [.notice, .warning, .error, .critical])
        #expect(Logger.Level.allCases.sorted() == Logger.Level.allCases)
    }

    @Test func messagesBelowTheLevelAreNeverBuilt() {
        let built = Locked(0)
        func expensive() -> String {
            built.withLock { $0 += 1 }
            return "expensive"
        }
        let log = Logger.capturing(level: .error)
        log.debug(expensive(), metadata: ["k": expensive()])
        Logger.discarding.critical(expensive())
        #expect(built.get() == 0)
        log.error(expensive())
        #expect(built.get() == 1)
    }

    @Test func nestedScopesAddMetadataWithoutTouchingCallers() {
        func handle() { Logger.current.info("handled", metadata: ["step": "inner"]) }
        let log = Logger.capturing()
        withInjected(log) {
            withInjected(Logger.current.with(metadata: ["request": "42", "step": "outer"])) {
                withInjected(Logger.current.with(metadata: ["user": "ada"])) { handle() }
            }
            handle()
        }
        #expect(
            log.captured.map(\.metadata) == [
                ["request": "42", "user": "ada", "step": "inner"],
                ["step": "inner"],
            ])
    }

    @Test func capturingIsThreadSafe() {
        let log = Logger.capturing()
        DispatchQueue.concurrentPerform(iterations: 1_000) { index in
            log.info("entry \(index)")
        }
        #expect(log.captured.count == 1_000)
        #expect(Set(log.captured.map(\.message)).count == 1_000)
    }

    @Test func aCustomSinkReceivesEntries() {
        struct Forwarding: LogSink {
            let lines: Locked<[String]>
            func write(_ entry: AmbientProviders.Logger.Entry) {
                lines.withLock { $0.append("\(entry.level): \(entry.message)") }
            }
        }
        let lines = Locked<[String]>([])
        let logger = AmbientProviders.Logger(sink: Forwarding(lines: lines), level: .warning)
        logger.info("dropped")
        logger.warning("kept")
        #expect(lines.get() == ["warning: kept"])
    }

    @Test func theFileSinkWritesOneLinePerEntry() throws {
        let pipe = Pipe()
        let logger = AmbientProviders.Logger(sink: FileLogSink(pipe.fileHandleForWriting), level: .info)
        withInjected(Clock.fixed(Date(timeIntervalSince1970: 0))) {
            logger.info("first", metadata: ["b": "2", "a": "1"])
            logger.debug("below the level")
            logger.error("second")
        }
        try pipe.fileHandleForWriting.close()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(
            lines.first?.hasPrefix(
                "1970-01-01T00:00:00Z [info] first a=1 b=2 (AmbientProvidersTests/LoggerTests.swift:") == true
        )
        #expect(
            lines.last?.hasPrefix("1970-01-01T00:00:00Z [error] second (AmbientProvidersTests/LoggerTests.swift:")
                == true)
    }

    @Test func capturingLoggersDescribeWhatTheyHold() {
        let log = Logger.capturing()
        log.info("one")
        #expect(log.description.contains("capturing(1 entry)"))
        log.info("two")
        #expect(log.description.contains("capturing(2 entries)"))
    }

    @Test func theLiveLoggerWritesToStandardErrorFromInfoUp() {
        #expect(Logger.current.level == .info)
        #expect(Logger.current.description == "Logger(stderr, level: info)")
        #expect(Logger.live.captured.isEmpty)
    }
}
