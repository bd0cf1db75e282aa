// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientTesting
import Foundation
import Testing

/// 240 test cases run in parallel, each injecting its own clock, defaults and logger and
/// checking that only its own values are ever seen — in its task, `async let`, task group
/// children and `Task { }` — while the others run.
@Suite("Parallel isolation")
struct ParallelIsolationTests {
    static let cases = 240

    @Test(arguments: 0..<cases)
    func eachTestSeesOnlyItsOwnValues(_ index: Int) async throws {
        let date = Date(timeIntervalSince1970: Double(index))
        let defaults = Defaults.inMemory(["index": .integer(index)])
        let log = Logger.capturing()
        try await withInjected(Clock.fixed(date), defaults, log) {
            func check() -> Bool {
                Clock.current.now == date && Defaults.current.integer(forKey: "index") == index
            }
            for _ in 0..<10 {
                #expect(check())
                await Task.yield()
            }
            async let fromAsyncLet = check()
            let fromGroup = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<4 { group.addTask { check() } }
                return await group.allSatisfy { $0 }
            }
            let fromTask = await Task { check() }.value
            #expect(await fromAsyncLet)
            #expect(fromGroup)
            #expect(fromTask)
            Logger.current.info("case \(index)")
            try await Task.sleep(for: .milliseconds(1))
            #expect(check())
        }
        #expect(log.captured.map(\.message) == ["case \(index)"])
        #expect(defaults.snapshot == ["index": .integer(index)])
    }
}
