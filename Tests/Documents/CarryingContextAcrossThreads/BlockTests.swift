// SPDX-License-Identifier: Apache-2.0

import Ambient
import Dispatch
import Foundation
import Testing

// Why: the page's statement blocks run inside tests that watch what legacy code sees (its
// Blocks.swift only compiles them). Each region from `// doc: name` to `// doc-end` is a
// block of the page, verbatim (DocumentationTests checks it); the members below shadow the
// page's Context for these tests.

@Suite("Carrying Context Across Threads article")
struct CarryingArticleTests {
    let sightings = Sightings()
    let injected = Date(timeIntervalSince1970: 0)

    /// Legacy code: reads the ambient clock wherever it happens to run.
    func legacyWorker() { sightings.record(Clock.current.now) }

    func legacyRefresh() async { sightings.record(Clock.current.now) }

    /// A legacy API that calls back on a queue of its own.
    func fetchGreeting(completion: @escaping @Sendable (String?, (any Error)?) -> Void) {
        DispatchQueue.global().async { completion("hello", nil) }
    }

    @Test func aTaskStartedInAScopeKeepsItsValues() async {
        let start = Date(timeIntervalSince1970: 0)
        // doc: task-outlives-scope
        let task = withInjected(Clock.fixed(start)) {
            Task { Clock.current.now }  // copies the scope's binding when it is created
        }
        #expect(await task.value == start)  // the scope has ended; the task still sees its values
        // doc-end
    }

    @Test func dispatchWithBind() async {
        withInjected(Clock.fixed(injected)) {
            // doc: dispatch-bind
            DispatchQueue.global().async(
                execute: InjectionContext.current.bind {
                    legacyWorker()  // sees the caller's injected values
                })
            // doc-end
        }
        #expect(await sightings.first() == injected)
    }

    @Test func dispatchWithRun() async {
        withInjected(Clock.fixed(injected)) {
            // doc: dispatch-run
            let context = InjectionContext.current  // capture in the caller's scope,
            DispatchQueue.global().async {
                context.run { legacyWorker() }  // re-enter it on the queue
            }
            // doc-end
        }
        #expect(await sightings.first() == injected)
    }

    @Test func capturingOnTheQueueIsTooLate() async {
        withInjected(Clock.fixed(injected)) {
            // doc: dispatch-wrong
            DispatchQueue.global().async {
                InjectionContext.current.run { legacyWorker() }  // wrong: the queue's context, empty
            }
            // doc-end
        }
        #expect(await sightings.first() != injected)
    }

    @Test func aThread() async {
        withInjected(Clock.fixed(injected)) {
            // doc: thread
            let thread = Thread(block: InjectionContext.current.bind { legacyWorker() })
            thread.start()
            // doc-end
        }
        #expect(await sightings.first() == injected)
    }

    @Test func aDetachedTask() async {
        let refresh = withInjected(Clock.fixed(injected)) {
            let context = InjectionContext.current
            let refresh = Task.detached(priority: .background) {
                await context.run { await legacyRefresh() }
            }
            return refresh
        }
        await refresh.value
        #expect(await sightings.first() == injected)
    }

    @Test func aCompletionHandler() async {
        let log = Logger.capturing()
        await withInjected(log, Clock.fixed(injected)) {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                fetchGreeting(
                    completion: InjectionContext.current.bind { (greeting: String?, error: (any Error)?) in
                        Logger.current.info("fetched \(greeting ?? "nothing")")  // the caller's logger
                        done.resume()
                    })
            }
        }
        #expect(log.captured.map(\.message) == ["fetched hello"])
        #expect(log.captured.map(\.date) == [injected])
    }

    @Test func layeringOnACapturedContext() async {
        let log = Logger.capturing()
        withInjected(log) {
            // doc: layering
            let quiet = InjectionContext.current.injecting(Clock.fixed(injected), Logger.discarding)
            DispatchQueue.global().async(execute: quiet.bind { legacyWorker() })
            // doc-end
        }
        #expect(await sightings.first() == injected)
    }
}
