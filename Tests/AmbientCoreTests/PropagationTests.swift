// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Dispatch
import Foundation
import Testing

@Suite("Threads, queues, detached tasks: what is inherited and how to carry it")
struct PropagationTests {
    // MARK: - Synchronous code outside any task: the binding is per thread.

    @Test func outsideATaskTheBindingIsPerThread() {
        let (own, other) = onNewThread {
            // Plain thread, no task: `withInjected` binds this thread only.
            withInjected(Tag("thread A")) {
                let other = onNewThread { Tag.current.name }
                return (Tag.current.name, other)
            }
        }
        #expect(own == "thread A")
        #expect(other == "default")
    }

    @Test func aThreadStartedInsideAScopeDoesNotInheritIt() {
        withInjected(Tag("scope")) {
            #expect(onNewThread { Tag.current.name } == "default")
        }
    }

    @Test func aThreadInheritsWhenTheContextIsCarried() {
        withInjected(Tag("carried"), Number(value: 9)) {
            let context = InjectionContext.current
            let viaRun = onNewThread { context.run { Snapshot.take() } }
            let viaBind = onNewThread(context.bind { Snapshot.take() })
            #expect(viaRun == Snapshot(tag: "carried", number: 9))
            #expect(viaBind == Snapshot(tag: "carried", number: 9))
        }
    }

    // MARK: - Dispatch

    @Test func dispatchAsyncDoesNotInheritTheScope() {
        let queue = DispatchQueue(label: "legacy")
        withInjected(Tag("scope")) {
            #expect(onQueue(queue) { Tag.current.name } == "default")
        }
    }

    @Test func dispatchAsyncInheritsWhenBound() {
        let queue = DispatchQueue(label: "legacy", attributes: .concurrent)
        withInjected(Tag("bound")) {
            let seen = Locked<[String]>([])
            let group = DispatchGroup()
            for _ in 0..<50 {
                queue.async(
                    group: group,
                    execute: InjectionContext.current.bind {
                        seen.withLock { $0.append(Tag.current.name) }
                    })
            }
            group.wait()
            #expect(seen.get() == Array(repeating: "bound", count: 50))
        }
    }

    @Test func boundCompletionHandlersReceiveTheirArgumentsAndRunInTheContext() {
        func legacyFetch(completion: @escaping @Sendable (Int, String?) -> Void) {
            DispatchQueue.global().async { completion(42, nil) }
        }
        let received = Locked<(Int, String?, String)?>(nil)
        let done = DispatchSemaphore(value: 0)
        withInjected(Tag("handler")) {
            legacyFetch(
                completion: InjectionContext.current.bind { value, error in
                    received.set((value, error, Tag.current.name))
                    done.signal()
                })
        }
        done.wait()
        let result = received.get()
        #expect(result?.0 == 42)
        #expect(result?.1 == nil)
        #expect(result?.2 == "handler")
    }

    @Test func boundThrowingClosuresPassErrorsThrough() throws {
        let bound = withInjected(Tag("throwing")) {
            InjectionContext.current.bind { (code: Int) throws -> String in
                if code > 0 { throw TestFailure(code: code) }
                return Tag.current.name
            }
        }
        #expect(try bound(0) == "throwing")
        #expect(throws: TestFailure(code: 5)) { try bound(5) }
    }

    @Test func aBoundClosureUsesTheContextOfWhereItWasMadeNotWhereItRuns() {
        let bound = withInjected(Tag("made here")) { InjectionContext.current.bind { Tag.current.name } }
        withInjected(Tag("called here")) {
            #expect(bound() == "made here")
            #expect(Tag.current.name == "called here")
        }
        #expect(bound() == "made here")
    }

    // MARK: - Task.detached

    @Test func detachedTasksDoNotInheritTheScope() async {
        let name = await withInjected(Tag("scope")) {
            await Task.detached { Tag.current.name }.value
        }
        #expect(name == "default")
    }

    @Test func detachedTasksInheritWhenTheContextIsCarried() async {
        let snapshot = await withInjected(Tag("detached"), Number(value: 3)) {
            let context = InjectionContext.current
            return await Task.detached {
                await context.run {
                    await Task.yield()
                    return Snapshot.take()
                }
            }.value
        }
        #expect(snapshot == Snapshot(tag: "detached", number: 3))
    }

    // MARK: - run

    @Test func runReplacesTheEnclosingContextForItsDuration() {
        let captured = withInjected(Tag("captured")) { InjectionContext.current }
        withInjected(Tag("enclosing"), Number(value: 1)) {
            captured.run {
                #expect(Tag.current.name == "captured")
                #expect(Number.current.value == 0)  // not in the captured context
            }
            #expect(Snapshot.take() == Snapshot(tag: "enclosing", number: 1))
        }
    }

    @Test func runningTheEmptyContextShowsDefaults() async {
        await withInjected(Tag("hidden")) {
            InjectionContext().run { #expect(Tag.current.name == "default") }
            await InjectionContext().run {
                await Task.yield()
                #expect(Tag.current.name == "default")
            }
        }
    }

    @Test func runReturnsAndThrowsLikeItsBody() async throws {
        let context = InjectionContext().injecting(Number(value: 2))
        #expect(context.run { Number.current.value + 1 } == 3)
        #expect(throws: TestFailure(code: 7)) {
            try context.run { () throws(TestFailure) in throw TestFailure(code: 7) }
        }
        let asyncResult = await context.run {
            await Task.yield()
            return Number.current.value * 10
        }
        #expect(asyncResult == 20)
    }
}
