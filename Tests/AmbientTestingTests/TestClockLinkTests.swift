// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

/// The test clock is a module of its own so that a program that never tests carries none of
/// it: its runtime hook (found by name, `swift_task_enqueueGlobal_hook`) and its types.
/// ReportWithoutAmbientTesting links `Ambient` alone; ReportOutsideATest links AmbientTesting,
/// which re-exports AmbientTestClock, and shows that the search finds them where they are.
@Suite("Only a program that links the test clock carries it")
struct TestClockLinkTests {
    private static let marks = ["swift_task_enqueueGlobal_hook", "AmbientTestClock"]

    private static func marks(in program: String) throws -> [String] {
        let binary = try Data(contentsOf: ChildProgram.executable(named: program))
        return marks.filter { binary.range(of: Data($0.utf8)) != nil }
    }

    @Test func aProgramThatLinksAmbientAloneHasNoTestClock() throws {
        #expect(try Self.marks(in: "ReportWithoutAmbientTesting") == [])
    }

    @Test func aProgramThatLinksAmbientTestingHasIt() throws {
        #expect(try Self.marks(in: "ReportOutsideATest") == Self.marks)
    }
}
