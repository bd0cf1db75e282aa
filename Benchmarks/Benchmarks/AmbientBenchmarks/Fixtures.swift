// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation
import ServiceContextModule
import Synchronization

/// A value with no references: reading it needs no retain/release.
struct Counter: AmbientValue {
    var value: Int
    static var defaultValue: Counter { globalCounter }
}

/// Another ambient type, injected by the inner scopes of the nesting cases.
struct Filler: AmbientValue {
    var value: Int
    static var defaultValue: Filler { Filler(value: 0) }
}

let fixedDate = Date(timeIntervalSince1970: 1_000_000)
let globalClock = Clock.live
let injectedClock = Clock.fixed(fixedDate)
let injectedDefaults = Defaults.inMemory(["k": "v"])
let injectedLogger = Logger.discarding
let injectedUUIDs = UUIDGenerator.incrementing
let globalCounter = Counter(value: 0)
let atomicFloor = Atomic<Int>(0)

/// A task-local of Ambient's own kind, read with `get()`: the "read: scope of 1, via TaskLocal.get()" row.
let viaGet = TaskLocal<InjectionContext>(wrappedValue: InjectionContext())

/// `withInjected` forced through the variadic overload: called with a pack expansion, the
/// compiler cannot pick the spelled-out one-, two- or three-value forms.
@inline(never)
func withInjectedViaPack<each V: AmbientValue, R>(_ values: repeat each V, operation body: () -> R) -> R {
    withInjected(repeat each values, operation: body)
}

/// A singleton accessor as legacy code has them (`UserDefaults.standard`, a getter in
/// another module): a call that hands the caller its own copy of the shared value. `@_optimize(none)` stops the optimizer from turning the result
/// into a borrow of the global, which it can only do when it sees the global.
@_optimize(none)
func clockAccessor() -> Clock {
    globalClock
}

/// An object the size of a one-`Clock` snapshot (header, one slot, the value): what one
/// scope's allocation costs on its own.
/// One long-lived object, for the retain/release floor.
let sharedObject = Immutable()

final class Immutable: Sendable {}

final class SnapshotSized {
    var words: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
}

/// The raw floor: one `@TaskLocal`, used directly.
enum Raw {
    @TaskLocal static var clock = globalClock
    @TaskLocal static var defaults = Defaults.standard
    @TaskLocal static var logger = Logger.live
}

/// What the Objective-C singleton swizzle amounts to: a lock-protected global, swapped in
/// and out with `defer`.
enum Swizzled {
    private static let state = Mutex(globalClock)

    static var current: Clock { state.withLock { $0 } }

    static func with<R>(_ value: Clock, _ body: () -> R) -> R {
        let previous = state.withLock { state in
            defer { state = value }
            return state
        }
        defer { state.withLock { $0 = previous } }
        return body()
    }
}

enum ClockKey: ServiceContextKey {
    typealias Value = Clock
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

/// A class reading its clock through `@Captured`.
final class ClockUser: @unchecked Sendable {
    // @unchecked: the wrapper is written only by `init`.
    @Captured var clock: Clock
}
