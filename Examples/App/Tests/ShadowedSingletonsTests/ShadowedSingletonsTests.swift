// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientTesting
import Foundation
import ShadowedSingletons
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a callback delivered, from whichever thread it ran on.
final class Delivered<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `values` is only touched with `lock` held.
    private let lock = NSLock()
    private var values: [Value] = []
    var all: [Value] { lock.withLock { values } }
    func record(_ value: Value) { lock.withLock { values.append(value) } }
}

/// What a legacy call that hands its result to a callback from background work delivered, the
/// call made in the scope of a tracked background queue and an empty store, once the queue has
/// finished: a carried hop reads the store it writes, and is waited for.
func deliveredAfterTrackedWork(_ call: (@escaping @Sendable (String?) -> Void) -> Void) async -> [String?] {
    let background = BackgroundQueue.tracked()
    let delivered = Delivered<String?>()
    withInjected(background, Defaults.inMemory()) { call { delivered.record($0) } }
    await background.finished()
    return delivered.all
}

/// Each name the one-file port takes over, read by unchanged legacy code (ShadowedSingletons),
/// gives what the test injected: values, accessors, free functions, and the queues' hops,
/// waited for by the test's own waits.
@Suite
struct ShadowedSingletonsTests {
    let noon = Date(timeIntervalSince1970: 43_200)

    @Test func valuesReadTheInjectedClockGeneratorAndRegion() {
        let id = UUID(uuidString: "00000000-0000-0000-0000-00000000002A")!
        let region = Region.fixed(locale: Locale(identifier: "fr_FR"), timeZone: TimeZone(identifier: "Asia/Tokyo")!)
        withInjected(Clock.fixed(noon), UUIDGenerator.constant(id), region) {
            #expect(currentDate() == noon)
            #expect(secondsFromNow(until: noon.addingTimeInterval(60)) == 60)
            #expect(newIdentifier() == id)
            #expect(regionIdentifiers() == ["fr_FR", "Asia/Tokyo", "gregorian"])
            #expect(formatted(noon) == "1970-01-01 21:00")
            #expect(formattedNumber(1234.5).hasSuffix(",5"))  // French: a decimal comma
        }
    }

    /// Outside the module, here in its tests, the system's names are the system's.
    @Test func codeOutsideTheModuleSeesTheSystemsNames() {
        withInjected(Clock.fixed(noon)) {
            #expect(currentDate() == noon)
            #expect(Date() != noon)
        }
        #expect(type(of: UserDefaults.standard) == Foundation.UserDefaults.self)
        #expect(type(of: DispatchQueue.main) == Dispatch.DispatchQueue.self)
    }

    @Test func accessorsReadTheInjectedEnvironmentFilesAndNotifications() throws {
        let files = FileSystem.inMemory()
        let notifications = Notifications.isolated()
        let posted = Delivered<String>()
        let token = notifications.addObserver(forName: Notification.Name("ping")) { posted.record($0.name.rawValue) }
        defer { notifications.removeObserver(token) }
        let read = try withInjected(ProcessEnvironment(variables: ["MODE": "test"]), files, notifications) {
            #expect(environmentValue("MODE") == "test")
            announce("ping")
            return try roundTrip(Data("bytes".utf8), named: "shadowed.bin")
        }
        #expect(read == Data("bytes".utf8))
        #expect(files.fileExists(atPath: files.temporaryDirectory.appendingPathComponent("shadowed.bin").path))
        #expect(posted.all == ["ping"])
    }

    @Test func printAndNSLogGoToTheInjectedLogger() {
        let logger = Logger.capturing()
        withInjected(logger) { logBoth("x") }
        #expect(logger.captured.map(\.message) == ["printed x", "logged x 42"])
    }

    @Test func aGroupNotificationOnTheGlobalQueueCarriesAndIsWaitedFor() async {
        #expect(await deliveredAfterTrackedWork(notifyOnGlobal) == ["written"])
    }

    @Test func aGroupNotificationOnTheMainQueueCarriesAndIsWaitedFor() async {
        let testClock = TestClock()
        let defaults = Defaults.inMemory()
        let delivered = Delivered<String?>()
        withInjected(BackgroundQueue.driven(by: testClock), MainQueue.driven(by: testClock), defaults) {
            notifyOnMain { delivered.record($0) }
        }
        await testClock.run()
        #expect(delivered.all == ["main"])
    }

    @Test func aThreadsSleepIsOnTheTestClock() async {
        let testClock = TestClock()
        let delivered = Delivered<Date>()
        withInjected(BackgroundQueue.driven(by: testClock), testClock.clock) {
            stampAfterSleeping(10) { delivered.record($0) }
        }
        await testClock.advance(by: .seconds(9))
        #expect(delivered.all.isEmpty)
        await testClock.advance(by: .seconds(1))
        #expect(delivered.all == [testClock.clock.now])
    }

    @Test func deferredMainQueueWorkAndTimersRunWhenTheTestClockGetsThere() async {
        let testClock = TestClock()
        let delivered = Delivered<String>()
        withInjected(BackgroundQueue.driven(by: testClock), MainQueue.driven(by: testClock)) {
            fireLater { delivered.record($0) }
        }
        await testClock.advance(by: .seconds(2))
        #expect(delivered.all == ["asyncAfter"])
        await testClock.advance(by: .seconds(1))
        #expect(delivered.all == ["asyncAfter", "timer"])
    }

    @Test func aTimerAddedToTheMainRunLoopBeatsOnTheTestClock() async {
        let testClock = TestClock()
        let beats = Delivered<Date>()
        let stop = withInjected(MainQueue.driven(by: testClock), testClock.clock) {
            startHeartbeat(every: 2.5) { beats.record(testClock.clock.now) }
        }
        await testClock.advance(by: .seconds(5))
        #expect(beats.all.count == 2)
        stop()
        await testClock.advance(by: .seconds(10))
        #expect(beats.all.count == 2)
    }

    @Test func theSharedSessionIsTheInjectedOne() async {
        let background = BackgroundQueue.tracked()
        let network = NetworkSession.stub { _ in .response(status: 200, headers: [:], body: Data("four".utf8)) }
        let delivered = Delivered<Int?>()
        withInjected(background, network) { fetch(URL(string: "https://example.com/x")!) { delivered.record($0) } }
        await background.finished()
        #expect(delivered.all == [4])
    }

    /// Strict mode sees a read through a shadowed name as the read it is.
    @Test(.strict())
    func strictModeReportsAShadowedReadOfWhatTheTestDidNotInject() {
        withKnownIssue {
            _ = environmentValue("HOME")
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("ProcessEnvironment.current was read") }
        }
    }

    /// A read in a callback on a thread the module does not own finds no scope: a strict test
    /// that injected the type hears of it, as a warning at the module's line that read. (The
    /// traits run inside `withKnownIssue`, which sees the warning they record as the test ends.)
    @Test func aReadOnAForeignThreadIsReportedAtTheModulesLine() async throws {
        let test = try #require(Test.current)
        let delivered = Delivered<Bool>()
        try await withKnownIssue {
            try await InjectionTrait.strict().provideScope(for: test, testCase: Test.Case.current) {
                try await InjectionTrait.injecting(Defaults.inMemory(["flag": true])).provideScope(
                    for: test, testCase: Test.Case.current
                ) {
                    readFlagOnAForeignThread { delivered.record($0) }
                    while delivered.all.isEmpty { try await Task.sleep(for: .milliseconds(1)) }
                }
            }
        } matching: { issue in
            issue.severity == .warning && issue.sourceLocation?.fileID == "ShadowedSingletons/LegacySingletons.swift"
                && issue.sourceLocation?.line == 286
                && issue.comments.contains { $0.rawValue.contains("Defaults.current was read (at ShadowedSingletons/") }
        }
        #expect(delivered.all == [false])  // the live defaults': the read was not followed
    }

    /// A report made on a queue's thread through a shadowed name is the test's, delivered by
    /// the wait that covers that work.
    @Test(.strict(allowing: [BackgroundQueue.self]))
    func aReportFromAQueueThroughAShadowArrivesByTheWait() async {
        let background = BackgroundQueue.tracked()
        withInjected(background) { readFlagInBackground { _ in } }
        await withKnownIssue {
            await background.finished()
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("Defaults.current was read") }
        }
    }
}
