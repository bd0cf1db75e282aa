// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation
import Testing

@Suite("Isolation under load")
struct StressTests {
    @Test func aThousandConcurrentTasksSeeOnlyTheirOwnValues() async {
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for task in 0..<1_000 {
                group.addTask {
                    await withInjected(Number(value: task), Tag("task \(task)")) {
                        var bad = 0
                        for round in 0..<20 {
                            if Number.current.value != task || Tag.current.name != "task \(task)" { bad += 1 }
                            // A nested scope of its own, then back: still its own values.
                            bad += withInjected(Number(value: -round)) { Number.current.value == -round ? 0 : 1 }
                            await Task.yield()
                        }
                        async let child = Number.current.value
                        if await child != task { bad += 1 }
                        return bad
                    }
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }

    @Test func manyThreadsUsingThePerThreadBindingSeeOnlyTheirOwnValues() {
        let threadCount = 16
        let iterations = Sanitizers.scaled(2_000)
        let mismatches = Locked(0)
        let done = DispatchGroup()
        for thread in 0..<threadCount {
            done.enter()
            Thread {
                var bad = 0
                for iteration in 0..<iterations {
                    let expected = thread * 1_000_000 + iteration
                    withInjected(Number(value: expected)) {
                        withInjected(Tag("t\(thread)")) {
                            if Number.current.value != expected || Tag.current.name != "t\(thread)" { bad += 1 }
                        }
                        if Number.current.value != expected || Tag.current != Tag.defaultValue { bad += 1 }
                    }
                    if Number.current.value != 0 { bad += 1 }
                }
                mismatches.withLock { $0 += bad }
                done.leave()
            }.start()
        }
        done.wait()
        #expect(mismatches.get() == 0)
    }

    @Test func oneContextRunConcurrentlyOnManyThreads() {
        let context = InjectionContext().injecting(Tag("shared"), Wide(7))
        let mismatches = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 2_000) { index in
            let ok = context.run {
                withInjected(Number(value: index)) {
                    Tag.current.name == "shared" && Wide.current == Wide(7) && Number.current.value == index
                }
            }
            if !ok { mismatches.withLock { $0 += 1 } }
        }
        #expect(mismatches.get() == 0)
    }
}

@Suite("Isolation under load: deep nesting")
struct DeepNestingStressTests {
    /// 10,000 tasks (2,000 under a sanitizer), each running a random stack of 1–16 nested
    /// scopes of random values and checking every read at every level against what it pushed.
    @Test func tenThousandTasksWithRandomNestedScopes() async {
        let tasks = Sanitizers.scaled(10_000)
        let failures = await withTaskGroup(of: Int.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var random = SplitMix(state: UInt64(task))
                    let depth = Int.random(in: 1...16, using: &random)
                    let plan = (0..<depth).map { _ in
                        (Int.random(in: 0..<3, using: &random), Int.random(in: 0..<1_000_000, using: &random))
                    }
                    return await DeepNestingStressTests.run(plan[...], expected: (tag: "default", number: 0))
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
    }

    /// Pushes `plan` (kind, value) one scope at a time, checking reads before and after.
    static func run(_ plan: ArraySlice<(Int, Int)>, expected: (tag: String, number: Int)) async -> Int {
        var bad = (Tag.current.name == expected.tag && Number.current.value == expected.number) ? 0 : 1
        guard let (kind, value) = plan.first else { return bad }
        let rest = plan.dropFirst()
        switch kind {
        case 0:
            bad += await withInjected(Tag("t\(value)")) {
                await run(rest, expected: (tag: "t\(value)", number: expected.number))
            }
        case 1:
            bad += await withInjected(Number(value: value)) {
                await Task.yield()
                return await run(rest, expected: (tag: expected.tag, number: value))
            }
        default:
            bad += await withInjected(Number(value: value), Tag("b\(value)")) {
                await run(rest, expected: (tag: "b\(value)", number: value))
            }
        }
        if Tag.current.name != expected.tag || Number.current.value != expected.number { bad += 1 }
        return bad
    }
}
