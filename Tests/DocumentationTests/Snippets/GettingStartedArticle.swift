// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientTesting
import Foundation
import Testing
import XCTest

// Behaviour tests around blocks of Sources/Ambient/Ambient.docc/GettingStarted.md (Tests/Documents/ compiles
// every block as written). Each region from `// doc: name` to `// doc-end` is one block, verbatim.

func trialDaysLeft() -> Int {
    // was: UserDefaults.standard.object(forKey: "trialStart") as? Date
    guard let start = Defaults.current.object(forKey: "trialStart") as? Date else { return 30 }
    // was: Date().timeIntervalSince(start)
    let daysUsed = Int(Clock.current.now.timeIntervalSince(start) / 86_400)
    if daysUsed >= 30 {
        // was: print("trial expired after \(daysUsed) days")
        Logger.current.notice("trial expired", metadata: ["daysUsed": "\(daysUsed)"])
    }
    return max(0, 30 - daysUsed)
}

@Suite("Getting Started article")
struct GettingStartedArticleTests {
    @Test func theTrialEndsAfterThirtyDays() {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let log = Logger.capturing()
        withInjected(
            Defaults.inMemory(["trialStart": .date(start)]),
            Clock.fixed(start.addingTimeInterval(31 * 86_400)),
            log
        ) {
            #expect(trialDaysLeft() == 0)
        }
        #expect(log.captured.map(\.message) == ["trial expired"])
    }

    @Test func scopesNest() {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        // doc: nesting
        let defaults = Defaults.inMemory(["trialStart": .date(start)])
        withInjected(defaults, Clock.fixed(start)) {
            #expect(trialDaysLeft() == 30)
            withInjected(Clock.fixed(start.addingTimeInterval(10 * 86_400))) {
                #expect(trialDaysLeft() == 20)  // the inner clock, the outer defaults
            }
            #expect(trialDaysLeft() == 30)  // the outer clock is current again
        }
        // doc-end
    }

    // doc: async
    @Test func childTasksInheritTheScope() async {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let left = await withInjected(Defaults.inMemory(["trialStart": .date(start)]), Clock.fixed(start)) {
            async let inChildTask = trialDaysLeft()  // a child task: the same values
            return await inChildTask
        }
        #expect(left == 30)
    }
    // doc-end
}

@Suite(.injecting(Defaults.inMemory()), .strict(allowing: [Logger.self]))
struct TrialTests {
    @Test(.injecting(Clock.fixed(Date(timeIntervalSince1970: 0))))
    func aNewUserHasThirtyDays() {
        #expect(trialDaysLeft() == 30)
    }
}

final class TrialTestCase: InjectingTestCase {
    override var injections: InjectionContext {
        InjectionContext().injecting(Defaults.inMemory(), Clock.fixed(Date(timeIntervalSince1970: 0)))
    }
    override var strictModeAllowing: [any Injectable.Type]? { [Logger.self] }

    func testANewUserHasThirtyDays() {
        XCTAssertEqual(trialDaysLeft(), 30)
    }
}
