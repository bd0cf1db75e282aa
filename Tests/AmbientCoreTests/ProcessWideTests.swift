// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Dispatch
import Foundation
import Testing

/// Used only by this suite: process-wide scopes are visible to every test running at the
/// same time, so the types they inject must not be read by any other suite.
struct LegacySetting: AmbientValue, Equatable {
    var name: String
    static var defaultValue: LegacySetting { LegacySetting("default") }
    init(_ name: String) { self.name = name }
}

/// A second type for this suite only.
struct LegacyLimit: AmbientValue, Equatable {
    var value: Int
    static var defaultValue: LegacyLimit { LegacyLimit(value: 0) }
}

/// A legacy component that does its work on a private queue it does not let you wrap.
final class LegacySearcher: Sendable {
    private let queue = DispatchQueue(label: "LegacySearcher")

    func settingSeenOnMyQueue() -> String {
        queue.sync { LegacySetting.current.name }
    }

    func settingSeenAsync(_ completion: @escaping @Sendable (String) -> Void) {
        queue.async { completion(LegacySetting.current.name) }
    }
}

@Suite("withInjectedProcessWide", .serialized)
struct ProcessWideTests {
    // The blocking form runs on threads of the test's own (`onOwnThread`): inside a task it
    // traps (see `theBlockingFormRefusesToRunInsideATask`).

    @Test func everyThreadAndQueueSeesTheValue() async {
        let searcher = LegacySearcher()
        let seen = await onOwnThread {
            withInjectedProcessWide(LegacySetting("everywhere")) {
                [
                    LegacySetting.current.name,
                    searcher.settingSeenOnMyQueue(),
                    onQueue(.global()) { LegacySetting.current.name },
                    onNewThread { LegacySetting.current.name },
                ]
            }
        }
        #expect(seen == Array(repeating: "everywhere", count: 4))
        #expect(searcher.settingSeenOnMyQueue() == "default")
    }

    @Test func theBlockingFormRefusesToRunInsideATask() async {
        await #expect(processExitsWith: .failure) {
            _ = blockingScopeCalledFromATask()
        }
    }

    @Test func theBlockingFormNestsInsideTheTasksOwnAsyncScope() async {
        let seen = await withInjectedProcessWide(LegacySetting("outer")) { () async in
            blockingScopeCalledFromATask()
        }
        #expect(seen == "inner")
    }

    @Test func detachedTasksSeeTheAsyncScopesValue() async {
        let name = await withInjectedProcessWide(LegacySetting("async")) {
            await Task.detached { LegacySetting.current.name }.value
        }
        #expect(name == "async")
        #expect(await Task.detached { LegacySetting.current.name }.value == "default")
    }

    @Test func thePriorValueIsBackAfterReturnAndThrow() async {
        let seen = await onOwnThread {
            withInjectedProcessWide(LegacySetting("once")) {}
            let afterReturn = onNewThread { LegacySetting.current.name }
            var thrown = "nothing thrown"
            do throws(TestFailure) {
                try withInjectedProcessWide(LegacySetting("throws")) { () throws(TestFailure) in
                    throw TestFailure(code: 1)
                }
            } catch {
                thrown = "threw \(error.code)"
            }
            return [afterReturn, thrown, onNewThread { LegacySetting.current.name }]
        }
        #expect(seen == ["default", "threw 1", "default"])
    }

    @Test func aTaskOrThreadBindingWinsPerType() async {
        let seen = await onOwnThread {
            withInjectedProcessWide(LegacySetting("process"), LegacyLimit(value: 5)) {
                let local = withInjected(LegacySetting("local")) {
                    [
                        LegacySetting.current.name,
                        "\(LegacyLimit.current.value)",  // not bound locally: process-wide
                        onNewThread { LegacySetting.current.name },
                    ]
                }
                let context = InjectionContext().injecting(LegacyLimit(value: 1))
                return local + [onNewThread { "\(context.run { LegacyLimit.current.value })" }]
            }
        }
        #expect(seen == ["local", "5", "process", "1"])
    }

    @Test func scopesNestAndRestoreTheOuterValues() async {
        let seen = await onOwnThread {
            withInjectedProcessWide(LegacySetting("outer"), LegacyLimit(value: 1)) {
                let inner = withInjectedProcessWide(LegacyLimit(value: 2)) {
                    [onNewThread { LegacySetting.current.name }, onNewThread { "\(LegacyLimit.current.value)" }]
                }
                return inner + [onNewThread { "\(LegacyLimit.current.value)" }]
            } + [onNewThread { "\(LegacyLimit.current.value)" }]
        }
        #expect(seen == ["outer", "2", "1", "0"])
    }

    @Test(.timeLimit(.minutes(1)))
    func childTasksNestWithoutWaiting() async {
        let seen = await withInjectedProcessWide(LegacySetting("outer")) {
            async let child: String = withInjectedProcessWide(LegacyLimit(value: 3)) {
                await Task.detached { "\(LegacySetting.current.name)/\(LegacyLimit.current.value)" }.value
            }
            return await child
        }
        #expect(seen == "outer/3")
    }

    @Test(.timeLimit(.minutes(1)))
    func contendingAsyncScopesTakeTurnsWithoutDeadlock() async {
        // Many more contenders than this machine's cooperative threads: a waiter that
        // blocked a pool thread instead of suspending would hang here.
        let active = Locked(0)
        let overlaps = Locked(0)
        let mismatches = Locked(0)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<32 {
                group.addTask {
                    await withInjectedProcessWide(LegacySetting("task \(index)")) {
                        if active.increment() > 1 { overlaps.withLock { $0 += 1 } }
                        await Task.yield()
                        let seen = await Task.detached { LegacySetting.current.name }.value
                        if seen != "task \(index)" { mismatches.withLock { $0 += 1 } }
                        active.withLock { $0 -= 1 }
                    }
                }
            }
        }
        #expect(overlaps.get() == 0)
        #expect(mismatches.get() == 0)
        #expect(LegacySetting.current.name == "default")
    }

    @Test(.timeLimit(.minutes(1)))
    func contendingThreadsAndTasksTakeTurns() async {
        let active = Locked(0)
        let overlaps = Locked(0)
        let finished = Locked(0)
        let threads = (0..<8).map { index in
            Thread {
                withInjectedProcessWide(LegacyLimit(value: index)) {
                    if active.increment() > 1 { overlaps.withLock { $0 += 1 } }
                    usleep(200)
                    if onQueue(.global(), { LegacyLimit.current.value }) != index { overlaps.withLock { $0 += 1 } }
                    active.withLock { $0 -= 1 }
                }
                finished.withLock { $0 += 1 }
            }
        }
        for thread in threads { thread.start() }
        await withTaskGroup(of: Void.self) { group in
            for index in 100..<108 {
                group.addTask {
                    await withInjectedProcessWide(LegacyLimit(value: index)) {
                        if active.increment() > 1 { overlaps.withLock { $0 += 1 } }
                        try? await Task.sleep(for: .microseconds(200))
                        if await Task.detached(operation: { LegacyLimit.current.value }).value != index {
                            overlaps.withLock { $0 += 1 }
                        }
                        active.withLock { $0 -= 1 }
                    }
                }
            }
        }
        while finished.get() < 8 { try? await Task.sleep(for: .milliseconds(1)) }
        #expect(overlaps.get() == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func siblingChildTasksTakeTurnsNesting() async {
        let active = Locked(0)
        let overlaps = Locked(0)
        await withInjectedProcessWide(LegacySetting("outer")) {
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        await withInjectedProcessWide(LegacyLimit(value: index)) {
                            if active.increment() > 1 { overlaps.withLock { $0 += 1 } }
                            await Task.yield()
                            let seen = await Task.detached {
                                "\(LegacySetting.current.name)/\(LegacyLimit.current.value)"
                            }.value
                            if seen != "outer/\(index)" { overlaps.withLock { $0 += 1 } }
                            active.withLock { $0 -= 1 }
                        }
                    }
                }
            }
        }
        #expect(overlaps.get() == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func aTaskThatOutlivesItsScopeCanStartANewOne() async {
        let gate = AsyncGate()
        let straggler = await withInjectedProcessWide(LegacySetting("ended")) { () async in
            Task {
                await gate.wait()
                return await withInjectedProcessWide(LegacySetting("new")) {
                    await Task.detached { LegacySetting.current.name }.value
                }
            }
        }
        gate.open()
        #expect(await straggler.value == "new")
        #expect(LegacySetting.current.name == "default")
    }
}

/// The blocking form, from synchronous code that may be running inside a task.
private func blockingScopeCalledFromATask() -> String {
    withInjectedProcessWide(LegacySetting("inner")) { LegacySetting.current.name }
}
