// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Dispatch
import Foundation
import Testing

/// `CarryingQueue.sync`: on the caller's thread (where Dispatch runs it whenever it can) the
/// caller's scope is still bound, so nothing is carried (where Dispatch runs it elsewhere, the
/// scope is entered there). Its result, its typed error and its barrier are Dispatch's.
@Suite
struct CarryingQueueSyncTests {
    struct Mark: AmbientValue, Equatable {
        var value: Int
        static var defaultValue: Mark { Mark(value: 0) }
    }

    struct Refused: Error, Equatable {}

    @Test func syncSeesTheCallersScopeAndReturnsItsResult() {
        let queue = CarryingQueue(label: "sync.scope")
        #expect(queue.sync { Mark.current.value } == 0)
        withInjected(Mark(value: 7)) {
            #expect(queue.sync { Mark.current.value } == 7)
            withInjected(Mark(value: 8)) { #expect(queue.sync { Mark.current.value } == 8) }
        }
        #expect(throws: Refused.self) { try queue.sync { () throws(Refused) -> Int in throw Refused() } }
    }

    @Test func syncFromATaskSeesTheTasksScope() async {
        let queue = CarryingQueue(label: "sync.task")
        await withInjected(Mark(value: 3)) {
            await Task.yield()
            #expect(queue.sync { Mark.current.value } == 3)
        }
    }

    /// Where Dispatch runs the work on the calling thread (here, from a thread of its own),
    /// the scope there is the caller's own.
    @Test func syncOnTheCallersThreadSeesItsThreadsScope() async {
        let queue = CarryingQueue(label: "sync.thread")
        let seen = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let caller = pthread_self()
                withInjected(Mark(value: 5)) {
                    continuation.resume(
                        returning: queue.sync { (pthread_equal(pthread_self(), caller) != 0, Mark.current.value) })
                }
            }
        }
        #expect(seen == (true, 5))
    }

    @Test func aBarrierSyncRunsAlone() {
        let queue = CarryingQueue(label: "sync.barrier", attributes: .concurrent)
        let running = Locked(0)
        let overlapped = Locked(false)
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            if index % 10 == 0 {
                queue.sync(flags: .barrier) {
                    overlapped.withLock { $0 = $0 || running.withLock { $0 } != 0 }
                }
            } else {
                queue.sync {
                    running.withLock { $0 += 1 }
                    running.withLock { $0 -= 1 }
                }
            }
        }
        #expect(!overlapped.withLock { $0 })
    }

    /// `DispatchQueue(label:target:)` where the target is a queue of the module's own (a
    /// `CarryingQueue` under the one-file port), the global queue or none.
    @Test func aQueueTargetsAnotherCarryingQueue() {
        let shared = CarryingQueue(label: "sync.shared")
        let optional: CarryingQueue? = shared
        let child = CarryingQueue(label: "sync.child", target: optional)
        let key = DispatchSpecificKey<String>()
        shared.queue.setSpecific(key: key, value: "shared")
        #expect(child.sync { DispatchQueue.getSpecific(key: key) } == "shared")
        #expect(
            CarryingQueue(label: "sync.global", target: .global()).sync { DispatchQueue.getSpecific(key: key) } == nil)
        #expect(CarryingQueue(label: "sync.none", target: nil).label == "sync.none")
    }
}
