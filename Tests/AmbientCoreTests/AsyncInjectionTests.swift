// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Testing

@Suite("withInjected: tasks")
struct AsyncInjectionTests {
    @Test func theInjectedValueSurvivesSuspension() async {
        await withInjected(Tag("async")) {
            #expect(Tag.current == Tag("async"))
            await Task.yield()
            try? await Task.sleep(for: .milliseconds(1))
            #expect(Tag.current == Tag("async"))
        }
        #expect(Tag.current == Tag("default"))
    }

    @Test func asyncLetChildrenInheritTheScope() async {
        await withInjected(Tag("parent"), Number(value: 4)) {
            async let first = Snapshot.take()
            async let second: Snapshot = {
                await Task.yield()
                return Snapshot.take()
            }()
            let expected = Snapshot(tag: "parent", number: 4)
            #expect(await first == expected)
            #expect(await second == expected)
        }
    }

    @Test func taskGroupChildrenInheritTheScope() async {
        let seen = await withInjected(Tag("group")) {
            await withTaskGroup(of: String.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        await Task.yield()
                        return Tag.current.name
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(seen == Array(repeating: "group", count: 20))
    }

    @Test func aScopeInsideAGroupBodyReachesTheTasksItAdds() async {
        let seen = await withTaskGroup(of: String.self) { group in
            withInjected(Tag("inside body")) {
                group.addTask { Tag.current.name }
            }
            group.addTask { Tag.current.name }
            return await group.reduce(into: []) { $0.append($1) }.sorted()
        }
        #expect(seen == ["default", "inside body"])
    }

    @Test func unstructuredTasksInheritTheScope() async {
        let task = withInjected(Tag("unstructured")) {
            Task { Tag.current.name }
        }
        #expect(await task.value == "unstructured")
    }

    @Test func childTasksCanNestTheirOwnScopes() async {
        await withInjected(Tag("outer"), Number(value: 1)) {
            async let inner: Snapshot = withInjected(Number(value: 2)) { Snapshot.take() }
            #expect(await inner == Snapshot(tag: "outer", number: 2))
            #expect(Number.current.value == 1)
        }
    }

    @Test func thePriorValueIsBackAfterAnAsyncThrow() async {
        await withInjected(Tag("outer")) {
            await #expect(throws: TestFailure(code: 3)) {
                try await withInjected(Tag("inner")) { () async throws(TestFailure) in
                    await Task.yield()
                    throw TestFailure(code: 3)
                }
            }
            #expect(Tag.current == Tag("outer"))
        }
    }

    @Test func thePriorValueIsBackAfterCancellation() async {
        let task = Task {
            try await withInjected(Tag("cancelled")) {
                try await Task.sleep(for: .seconds(60))
            }
        }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }

        await withInjected(Tag("outer")) {
            let observed = await Task {
                let outcome: Void? = try? await withInjected(Tag("inner")) {
                    withUnsafeCurrentTask { $0?.cancel() }
                    try await Task.sleep(for: .seconds(60))
                }
                return (outcome == nil, Tag.current.name)
            }.value
            #expect(observed.0)
            #expect(observed.1 == "outer")
        }
    }

    @Test func anEarlyExitFromATaskGroupRestoresEveryLevel() async {
        await withInjected(Tag("outer")) {
            let first = await withInjected(Number(value: 1)) {
                await withTaskGroup(of: String.self) { group in
                    for index in 0..<8 {
                        group.addTask {
                            await withInjected(Tag("child \(index)")) {
                                try? await Task.sleep(for: index == 0 ? .zero : .seconds(60))
                                return Tag.current.name
                            }
                        }
                    }
                    let first = await group.next()
                    group.cancelAll()  // the other seven end early, by cancellation
                    #expect(Snapshot.take() == Snapshot(tag: "outer", number: 1))
                    return first
                }
            }
            #expect(first == "child 0")
            #expect(Snapshot.take() == Snapshot(tag: "outer", number: 0))
        }
        #expect(Snapshot.take() == Snapshot(tag: "default", number: 0))
    }

    @MainActor
    @Test func runsOnTheCallersActorAndPassesNonSendableResultsThrough() async {
        final class NotSendable { var hits = 0 }
        let result: NotSendable = await withInjected(Tag("main")) {
            MainActor.assertIsolated("the scope must not hop off the main actor")
            await Task.yield()
            MainActor.assertIsolated("the scope must not hop off the main actor")
            let box = NotSendable()
            box.hits = Tag.current.name.count
            return box
        }
        #expect(result.hits == 4)
    }

    @Test func syncScopesWorkInsideAsyncCode() async {
        // The synchronous overload, called from an async function, binds the task.
        let name = withInjected(Tag("sync in async")) { Tag.current.name }
        #expect(name == "sync in async")
        await withInjected(Tag("outer")) {
            await Task.yield()
            withInjected(Number(value: 8)) {
                #expect(Snapshot.take() == Snapshot(tag: "outer", number: 8))
            }
        }
    }
}
