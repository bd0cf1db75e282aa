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

    /// Compiled, not run (it prints); `describingTheContext` checks what it would print.
    func printTheContext() {
        // doc: describe
        withInjected(Clock.fixed(Date(timeIntervalSince1970: 0)), Defaults.inMemory(["a": 1, "b": 2])) {
            print(InjectionContext.current)
            print(InjectionContext.current.debugDescription)
        }
        // doc-end
    }

    @Test func describingTheContext() {
        withInjected(Clock.fixed(Date(timeIntervalSince1970: 0)), Defaults.inMemory(["a": 1, "b": 2])) {
            #expect(
                InjectionContext.current.description
                    == "InjectionContext(Defaults: Defaults.inMemory(2 keys), Clock: Clock.fixed(1970-01-01 00:00:00 +0000))"
            )
            #expect(
                InjectionContext.current.debugDescription
                    == """
                    InjectionContext {
                      AmbientProviders.Defaults = Defaults.inMemory(2 keys)
                      AmbientProviders.Clock = Clock.fixed(1970-01-01 00:00:00 +0000)
                    }
                    """)
            // doc: inspect
            #expect(InjectionContext.current[Clock.self]?.now == Date(timeIntervalSince1970: 0))
            #expect(InjectionContext.current[Logger.self] == nil)  // not injected here
            #expect(InjectionContext.current.injectedTypes.count == 2)
            // doc-end
        }
        #expect(InjectionContext.current.isEmpty)
        #expect(InjectionContext.current.description == "InjectionContext(empty)")
    }

    // doc: uploader
    struct APIEndpoint: AmbientValue {
        var baseURL: String
        static var defaultValue: APIEndpoint { APIEndpoint(baseURL: "https://api.example.com") }
    }

    /// Legacy: uploads on a thread it creates itself, and exposes nothing to wrap.
    final class Uploader: Sendable {
        func upload(completion: @escaping @Sendable (String) -> Void) {
            Thread { completion(APIEndpoint.current.baseURL + "/upload") }.start()
        }
    }
    // doc-end

    // doc: process-wide-upload
    @Test func uploadsGoToStaging() async {
        let staging = APIEndpoint(baseURL: "https://staging.example.com")
        let url = await withInjectedProcessWide(staging) {
            await withCheckedContinuation { continuation in
                Uploader().upload { continuation.resume(returning: $0) }
            }
        }
        #expect(url == "https://staging.example.com/upload")
    }
    // doc-end
}

// doc: captured
final class SyncManager: @unchecked Sendable {  // its wrappers are set once, when it is made
    @Captured var clock: Clock
    @Captured var log: Logger

    func syncLater(completion: @escaping @Sendable (Date) -> Void) {
        DispatchQueue.global().async { [self] in
            log.info("syncing")  // the logger of the scope that made the manager
            completion(clock.now)  // and its clock, on a queue no scope reaches
        }
    }
}
// doc-end

@Suite("Carrying: objects that outlive their scope")
struct CapturedArticleTests {
    @Test func theManagersCallbackSeesTheCreatingScope() async {
        let fixed = Date(timeIntervalSince1970: 42)
        let log = Logger.capturing()
        let manager = withInjected(Clock.fixed(fixed), log) { SyncManager() }
        let seen = await withCheckedContinuation { continuation in
            manager.syncLater { continuation.resume(returning: $0) }
        }
        #expect(seen == fixed)
        #expect(log.captured.map(\.message) == ["syncing"])
    }

    /// A value that travels as its text (the "Other processes" section).
    struct Note: CarriableValue {
        var text: String
        static var defaultValue: Note { Note(text: "receiver's own") }
        static var carrierKey: String { "note" }
        var carrierEncoding: String? { text }
        init(text: String) { self.text = text }
        init(carrierEncoding: String) throws { text = carrierEncoding }
    }

    @Test func valuesTravelAsFieldsToAnotherProcess() throws {
        let noon = Date(timeIntervalSinceReferenceDate: 43_200)
        // doc: carrying-other-processes
        let carried = CarriedValues(Clock.self, Note.self)

        // The test, about to start a child process:
        let fields = withInjected(Clock.fixed(noon), Note(text: "from the test")) {
            carried.encode(.current)  // ["ambient-clock": "fixed:43200.0", "ambient-note": "from%20the%20test"]
        }

        // The child, reading them from the pipe its parent gave it (nobody else can write there):
        let received = try carried.decode(fields, trusting: .anySender)
        let seen = InjectionContext.current.injecting(contentsOf: received).run {
            (Clock.current.now, Note.current.text)
        }
        #expect(seen == (noon, "from the test"))
        // doc-end
        #expect(fields == ["ambient-clock": "fixed:43200.0", "ambient-note": "from%20the%20test"])
    }
}
