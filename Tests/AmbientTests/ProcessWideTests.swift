import Ambient
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
    @Test func everyThreadAndQueueSeesTheValue() {
        let searcher = LegacySearcher()
        let seen = withInjectedProcessWide(LegacySetting("everywhere")) {
            [
                LegacySetting.current.name,
                searcher.settingSeenOnMyQueue(),
                onQueue(.global()) { LegacySetting.current.name },
                onNewThread { LegacySetting.current.name },
            ]
        }
        #expect(seen == Array(repeating: "everywhere", count: 4))
        #expect(searcher.settingSeenOnMyQueue() == "default")
    }

    @Test func detachedTasksSeeTheAsyncScopesValue() async {
        let name = await withInjectedProcessWide(LegacySetting("async")) {
            await Task.detached { LegacySetting.current.name }.value
        }
        #expect(name == "async")
        #expect(await Task.detached { LegacySetting.current.name }.value == "default")
    }

    @Test func thePriorValueIsBackAfterReturnAndThrow() {
        withInjectedProcessWide(LegacySetting("once")) {}
        #expect(onNewThread { LegacySetting.current.name } == "default")
        #expect(throws: TestFailure(code: 1)) {
            try withInjectedProcessWide(LegacySetting("throws")) { () throws(TestFailure) in
                throw TestFailure(code: 1)
            }
        }
        #expect(onNewThread { LegacySetting.current.name } == "default")
    }

    @Test func aTaskOrThreadBindingWinsPerType() {
        withInjectedProcessWide(LegacySetting("process"), LegacyLimit(value: 5)) {
            withInjected(LegacySetting("local")) {
                #expect(LegacySetting.current.name == "local")
                #expect(LegacyLimit.current.value == 5)  // not bound locally: process-wide
                #expect(onNewThread { LegacySetting.current.name } == "process")
            }
            let context = InjectionContext().injecting(LegacyLimit(value: 1))
            #expect(onNewThread { context.run { LegacyLimit.current.value } } == 1)
        }
    }

    @Test func scopesNestAndRestoreTheOuterValues() {
        withInjectedProcessWide(LegacySetting("outer"), LegacyLimit(value: 1)) {
            withInjectedProcessWide(LegacyLimit(value: 2)) {
                #expect(onNewThread { LegacySetting.current.name } == "outer")
                #expect(onNewThread { LegacyLimit.current.value } == 2)
            }
            #expect(onNewThread { LegacyLimit.current.value } == 1)
        }
        #expect(onNewThread { LegacyLimit.current.value } == 0)
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
                        if active.increment() > 1 { overlaps.update { $0 += 1 } }
                        await Task.yield()
                        let seen = await Task.detached { LegacySetting.current.name }.value
                        if seen != "task \(index)" { mismatches.update { $0 += 1 } }
                        active.update { $0 -= 1 }
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
                    if active.increment() > 1 { overlaps.update { $0 += 1 } }
                    usleep(200)
                    if onQueue(.global(), { LegacyLimit.current.value }) != index { overlaps.update { $0 += 1 } }
                    active.update { $0 -= 1 }
                }
                finished.update { $0 += 1 }
            }
        }
        for thread in threads { thread.start() }
        await withTaskGroup(of: Void.self) { group in
            for index in 100..<108 {
                group.addTask {
                    await withInjectedProcessWide(LegacyLimit(value: index)) {
                        if active.increment() > 1 { overlaps.update { $0 += 1 } }
                        try? await Task.sleep(for: .microseconds(200))
                        if await Task.detached(operation: { LegacyLimit.current.value }).value != index {
                            overlaps.update { $0 += 1 }
                        }
                        active.update { $0 -= 1 }
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
                            if active.increment() > 1 { overlaps.update { $0 += 1 } }
                            await Task.yield()
                            let seen = await Task.detached {
                                "\(LegacySetting.current.name)/\(LegacyLimit.current.value)"
                            }.value
                            if seen != "outer/\(index)" { overlaps.update { $0 += 1 } }
                            active.update { $0 -= 1 }
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

/// A one-shot gate tasks can wait on.
final class AsyncGate: Sendable {
    private let state = Locked<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.update { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.update { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
