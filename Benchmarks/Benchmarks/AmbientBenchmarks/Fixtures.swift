import Ambient
import Foundation
import ServiceContextModule
import Synchronization

/// What the ambient value refers to: a class, like a real provider's live implementation.
final class Source: Sendable {
    let id: Int
    init(id: Int) { self.id = id }
}

/// The value read in every case: a struct holding a reference (a typical provider shape).
struct Reading: AmbientValue {
    let source: Source
    static var defaultValue: Reading { globalReading }
}

/// A value with no references: reading it needs no retain/release.
struct Counter: AmbientValue {
    var value: Int
    static var defaultValue: Counter { globalCounter }
}

/// Two more ambient types, for multi-value scopes and nesting.
struct Filler: AmbientValue {
    var value: Int
    static var defaultValue: Filler { Filler(value: 0) }
}

struct Extra: AmbientValue {
    var value: Int
    static var defaultValue: Extra { Extra(value: 0) }
}

let globalReading = Reading(source: Source(id: 0))
let injectedReading = Reading(source: Source(id: 1))
let globalCounter = Counter(value: 0)
let atomicFloor = Atomic<Int>(0)

/// A singleton accessor as legacy code has them (`UserDefaults.standard`, a getter in
/// another module): a call that hands the caller its own +1 copy of the shared value (one
/// retain, one release). `@_optimize(none)` stops the optimizer from turning the result
/// into a borrow of the global, which it can only do when it sees the global.
@_optimize(none)
func readingAccessor() -> Reading {
    globalReading
}
let fixedDate = Date(timeIntervalSince1970: 1_000_000)

/// The raw floor: one `@TaskLocal`, used directly.
enum Raw {
    @TaskLocal static var reading = globalReading
}

/// What the Objective-C singleton swizzle amounts to: a lock-protected global, swapped in
/// and out with `defer`.
enum Swizzled {
    private static let state = Mutex(globalReading)

    static var current: Reading { state.withLock { $0 } }

    static func with<R>(_ value: Reading, _ body: () -> R) -> R {
        let previous = state.withLock { state in
            defer { state = value }
            return state
        }
        defer { state.withLock { $0 = previous } }
        return body()
    }
}

enum ReadingKey: ServiceContextKey {
    typealias Value = Reading
}

/// One long-lived thread that is not a task: runs a closure and waits for it. The hand-off
/// costs a few microseconds per sample, under 1% of a 1,000,000-iteration sample.
final class PlainThread: @unchecked Sendable {
    // @unchecked: `work` is written before `start.signal()` and read after `start.wait()`.
    static let shared = PlainThread()

    private let start = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private var work: (@Sendable () -> Void)?

    private init() {
        let thread = Thread { [unowned self] in
            while true {
                start.wait()
                work?()
                done.signal()
            }
        }
        thread.start()
    }

    func run(_ body: @escaping @Sendable () -> Void) {
        work = body
        start.signal()
        done.wait()
    }

    /// `count` long-lived threads (threads are never torn down: a thread exiting while
    /// package-benchmark's malloc hooks are installed crashes Swift 6.3 on Linux).
    static func pool(_ count: Int) -> ThreadPool {
        poolLock.withLock { pools in
            if let pool = pools[count] { return pool }
            let pool = ThreadPool(threads: (0..<count).map { _ in PlainThread() })
            pools[count] = pool
            return pool
        }
    }

    private static let poolLock = Mutex<[Int: ThreadPool]>([:])
}

/// Runs one closure per thread, all at once, and waits for all of them.
struct ThreadPool: Sendable {
    let threads: [PlainThread]

    func runAll(_ body: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for (index, thread) in threads.enumerated() {
            group.enter()
            DispatchQueue.global().async {
                thread.run { body(index) }
                group.leave()
            }
        }
        group.wait()
    }
}
