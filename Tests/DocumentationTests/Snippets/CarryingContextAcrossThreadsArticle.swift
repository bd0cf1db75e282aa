// SPDX-License-Identifier: Apache-2.0

import Ambient
import Dispatch
import Foundation
import Testing

// Behaviour tests around blocks of Sources/Ambient/Ambient.docc/CarryingContextAcrossThreads.md (Tests/Documents/ compiles
// every block as written). Each region from `// doc: name` to `// doc-end` is one block, verbatim.
// Declarations sit inside article-specific types so their names stay unique in the module.

extension Notification.Name {
    static let settingsChanged = Notification.Name("settingsChanged")
}

@Suite("Carrying Context Across Threads article")
struct CarryingArticleTests {
    /// What the legacy code saw, collected from whichever thread it ran on.
    final class Sightings: Sendable {
        private let lock = NSLock()
        nonisolated(unsafe) private var dates: [Date] = []  // only touched with `lock` held

        func record(_ date: Date) { lock.withLock { dates.append(date) } }

        /// Waits (up to about ten seconds) for `count` sightings; returns what there is.
        func all(count: Int) async -> [Date] {
            for _ in 0..<10_000 {
                if lock.withLock({ dates.count }) >= count { break }
                try? await Task.sleep(for: .milliseconds(1))
            }
            return lock.withLock { dates }
        }

        /// Waits (up to about ten seconds) for the first sighting.
        func first() async -> Date? {
            for _ in 0..<10_000 {
                if let date = lock.withLock({ dates.first }) { return date }
                try? await Task.sleep(for: .milliseconds(1))
            }
            return nil
        }
    }

    let sightings = Sightings()
    let injected = Date(timeIntervalSince1970: 0)

    /// Legacy code: reads the ambient clock wherever it happens to run.
    func legacyWorker() { sightings.record(Clock.current.now) }

    func legacyRefresh() async { sightings.record(Clock.current.now) }

    /// A legacy API that calls back on a queue of its own.
    func fetchGreeting(completion: @escaping @Sendable (String?, (any Error)?) -> Void) {
        DispatchQueue.global().async { completion("hello", nil) }
    }

    func scheduleLegacyWork(on operations: OperationQueue, center: NotificationCenter) {
        let context = InjectionContext.current
        operations.addOperation(context.bind { syncSettings() })  // OperationQueue
        operations.addOperation(BlockOperation(block: context.bind { syncSettings() }))  // BlockOperation
        _ = center.addObserver(
            forName: .settingsChanged, object: nil, queue: .main,
            using: context.bind { _ in syncSettings() })  // an observer on the main queue
        DispatchQueue.main.async(execute: context.bind { syncSettings() })  // the main queue
    }

    func startSyncTimer() {
        let timer = Timer(
            timeInterval: 0.05, repeats: false, block: InjectionContext.current.bind { _ in syncSettings() })
        RunLoop.current.add(timer, forMode: .common)  // fires only while this thread's run loop runs
    }

    func syncSettings() { legacyWorker() }

    @Test func foundationsRunLaterAPIsSeeTheBoundContext() async {
        let operations = OperationQueue()
        let center = NotificationCenter()
        withInjected(Clock.fixed(injected)) { scheduleLegacyWork(on: operations, center: center) }
        center.post(name: .settingsChanged, object: nil)
        // Two operations, the observer (on the main queue) and the main-queue block.
        #expect(await sightings.all(count: 4) == Array(repeating: injected, count: 4))

        // The timer, on a thread that runs its own run loop.
        let timerSightings = Sightings()
        let done = DispatchSemaphore(value: 0)
        Thread {
            withInjected(Clock.fixed(injected)) {
                let timer = Timer(
                    timeInterval: 0.05, repeats: false,
                    block: InjectionContext.current.bind { _ in
                        timerSightings.record(Clock.current.now)
                    })
                RunLoop.current.add(timer, forMode: .common)
                RunLoop.current.run(until: Date().addingTimeInterval(1))
            }
            done.signal()
        }.start()
        await Task.detached { done.wait() }.value
        #expect(await timerSightings.first() == injected)
        // The snippet's own timer, started on that kind of thread, fires as well.
        let snippetDone = DispatchSemaphore(value: 0)
        Thread {
            withInjected(Clock.fixed(injected)) {
                self.startSyncTimer()
                RunLoop.current.run(until: Date().addingTimeInterval(1))
            }
            snippetDone.signal()
        }.start()
        await Task.detached { snippetDone.wait() }.value
        #expect(await sightings.all(count: 5).count == 5)
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
