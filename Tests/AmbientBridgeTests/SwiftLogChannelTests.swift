// SPDX-License-Identifier: Apache-2.0

#if SwiftLog
import Ambient
import AmbientTesting
import Foundation
import Logging
import Testing

// Why: in a file importing both modules, an unqualified `Logger.current` may be either one; each must reach the injected logger.

/// The SwiftLog trait's one channel: Ambient's and swift-log's task-local loggers in step.
/// This file imports both modules, as a server file importing Vapor and Ambient does, and
/// logs through the unqualified `Logger.current` as well as through both qualified ones.
@Suite("One logging channel: Ambient's and swift-log's Logger.current")
struct SwiftLogChannelTests {
    @Test func everyLoggerCurrentReachesTheInjectedLogger() {
        let capture = Ambient.Logger.capturing()
        withInjected(capture) {
            Logger.current.info("unqualified")
            Logging.Logger.current.info("swift-log's")
            Ambient.Logger.current.info("Ambient's")
        }
        #expect(capture.captured.map(\.message) == ["unqualified", "swift-log's", "Ambient's"])
    }

    /// A Logger scope inside another binds swift-log's logger only once (the bridge's
    /// handler reads Ambient's current logger at each entry): swift-log's entries still reach
    /// the inner logger, and the outer one again after the inner scope.
    @Test func aLoggerScopeInsideAnotherReachesTheInnerLogger() async {
        let outer = Ambient.Logger.capturing()
        let inner = Ambient.Logger.capturing()
        withInjected(outer) {
            withInjected(inner) { Logging.Logger.current.info("inner, sync") }
            Logging.Logger.current.info("outer")
        }
        await withInjected(outer) {
            await withInjected(inner) {
                await Task.yield()
                Logging.Logger.current.info("inner, async")
            }
        }
        let context = withInjected(inner) { InjectionContext.current }
        withInjected(outer) { context.run { Logging.Logger.current.info("inner, run") } }
        #expect(inner.captured.map(\.message) == ["inner, sync", "inner, async", "inner, run"])
        #expect(outer.captured.map(\.message) == ["outer"])
    }

    @Test func childTasksAndAsyncScopesToo() async {
        let capture = Ambient.Logger.capturing()
        await withInjected(capture) {
            async let child: Void = Logging.Logger.current.info("child task")
            await child
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<8 {
                    group.addTask { Logging.Logger.current.info("group \(index)") }
                }
            }
        }
        #expect(capture.captured.count == 9)
        #expect(capture.captured.first?.message == "child task")
    }

    @Test func aCapturedContextRunBindsBoth() {
        let capture = Ambient.Logger.capturing()
        let context = InjectionContext().injecting(capture, Ambient.Clock.fixed(Date(timeIntervalSince1970: 0)))
        context.run { Logging.Logger.current.info("in run") }
        #expect(capture.captured.map(\.message) == ["in run"])
    }

    @Test func anAmbientScopeInsideWithLoggerWins() {
        let (recorded, store) = RecordingLogHandler.logger()
        let capture = Ambient.Logger.capturing()
        withLogger(recorded) { _ in
            withInjected(capture) {
                Logging.Logger.current.info("inner is Ambient's")
            }
            Logging.Logger.current.info("outer is swift-log's")
        }
        #expect(capture.captured.map(\.message) == ["inner is Ambient's"])
        #expect(store.events.map(\.message.description) == ["outer is swift-log's"])
    }

    @Test func withLoggerInsideAnAmbientScopeIsSeenByAmbientsRead() {
        let (recorded, store) = RecordingLogHandler.logger()
        let capture = Ambient.Logger.capturing()
        withInjected(capture) {
            withLogger(recorded) { _ in
                Ambient.Logger.current.info("to both")
                // A nested scope that injects no logger leaves swift-log's binding alone.
                withInjected(Ambient.Clock.fixed(Date(timeIntervalSince1970: 0))) {
                    Ambient.Logger.current.info("still both")
                }
            }
        }
        #expect(store.events.map(\.message.description) == ["to both", "still both"])
        #expect(capture.captured.map(\.message) == ["to both", "still both"], "the injected logger still sees them")
    }

    @Test func withLoggerAloneIsSeenByAmbientsRead() {
        let (recorded, store) = RecordingLogHandler.logger()
        withLogger(recorded) { _ in
            Ambient.Logger.current.info("via Ambient")
        }
        #expect(store.events.map(\.message.description) == ["via Ambient"])
    }

    @Test func aScopeWithoutALoggerBindsNothing() {
        withInjected(Ambient.Clock.fixed(Date(timeIntervalSince1970: 0))) {
            #expect(Logging.Logger.current.label == "", "swift-log's task-local stays unbound")
        }
    }

    @Test func anEntryReachesTheInjectedLoggerOnce() {
        // The injected logger is itself a bridge to swift-log: an entry logged through
        // swift-log's Logger.current must reach the recorded handler once, not loop.
        let (recorded, store) = RecordingLogHandler.logger()
        withInjected(Ambient.Logger(swiftLog: recorded)) {
            Logging.Logger.current.info("once")
            Ambient.Logger.current.info("once more")
        }
        #expect(store.events.map(\.message.description) == ["once", "once more"])
    }

    @Test(.injecting(SwiftLogChannelTests.traitCapture))
    func aTestTraitBindsBoth() {
        Logging.Logger.current.info("from a trait's scope")
        #expect(Self.traitCapture.captured.map(\.message) == ["from a trait's scope"])
    }

    static let traitCapture = Ambient.Logger.capturing()
}
#endif
