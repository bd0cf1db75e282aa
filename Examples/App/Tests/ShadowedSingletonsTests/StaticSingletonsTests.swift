// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientTesting
import Foundation
import ShadowedSingletons
import Testing

/// A static set from a system singleton by the first code that reaches it: reached in a test
/// that injected that singleton, the one-file port gives it the live value, as a run with no
/// test would (a value read), or the fake's (a call through a handle), and fails the test with
/// the static's line, so no later test silently reads this test's value.
@Suite
struct StaticSingletonsTests {
    /// The issues `body` records, each expected.
    private func issues(_ body: () -> Void) -> [Issue] {
        let recorded = Delivered<Issue>()
        withKnownIssue(isIntermittent: true) {
            body()
        } matching: { issue in
            recorded.record(issue)
            return true
        }
        return recorded.all
    }

    private let noon = Date(timeIntervalSince1970: 43_200)

    @Test func aStaticSetFromDateInATestGetsTheLiveTimeAndFailsTheTestAtItsLine() throws {
        var launched = noon
        let found = issues {
            withInjected(Clock.fixed(noon)) { launched = LaunchInfo.launchTime }
        }
        #expect(abs(launched.timeIntervalSince(Foundation.Date())) < 60)
        let issue = try #require(found.count == 1 ? found.first : nil)
        #expect("\(issue)".contains("Date() was read by a static's or global's one-time initialiser"))
        #expect("\(issue)".contains("launchedAt"))
        #expect(issue.sourceLocation?.fileID == "ShadowedSingletons/LaunchInfo.swift")
        #expect(issue.sourceLocation?.line == 10)
    }

    @Test func aStaticSetFromCalendarOrTimeZoneGetsTheSystemsEvenACallBelow() {
        let auckland = TimeZone(identifier: "Pacific/Auckland")!
        var zones: [TimeZone] = []
        let found = issues {
            withInjected(Region.fixed(locale: Locale(identifier: "de_DE"), timeZone: auckland)) {
                zones = [LaunchInfo.calendarZone, LaunchInfo.settingsZone]
            }
        }
        #expect(zones == [Foundation.TimeZone.current, Foundation.TimeZone.current])
        #expect(found.count == 2)
        #expect(found.allSatisfy { "\($0)".contains("Region injected") })
        #expect(found.compactMap(\.sourceLocation?.line).sorted() == [11, 12])
    }

    @Test func aStaticSetFromUUIDGetsALiveOne() {
        var session: UUID?
        let found = issues {
            withInjected(UUIDGenerator.incrementing) { session = LaunchInfo.session }
        }
        #expect(session != UUID(uuidString: "00000000-0000-0000-0000-000000000000"))
        #expect(found.count == 1)
    }

    @Test func aStaticSetThroughAHandleKeepsTheFakesValueAndFailsTheTest() {
        var home: String?
        let found = issues {
            withInjected(ProcessEnvironment(variables: ["HOME": "/fake"])) { home = LaunchInfo.homeDirectory }
        }
        #expect(home == "/fake")
        #expect(found.count == 1)
        #expect(found.allSatisfy { "\($0)".contains("ProcessInfo.processInfo was read") })
    }

    @Test func aStaticReachedBeforeTheTestInjectsIsLiveAndUnreported() {
        let before = LaunchInfo.launchTimeReachedBeforeTheTests
        withInjected(Clock.fixed(noon)) {
            #expect(LaunchInfo.launchTimeReachedBeforeTheTests == before)
        }
        #expect(before != noon)
    }

    @Test func aStaticReachedInAScopeThatInjectedNothingIsUnreported() {
        withInjected(Defaults.inMemory()) {
            #expect(LaunchInfo.launchTimeWithNothingInjected != noon)
        }
    }
}
