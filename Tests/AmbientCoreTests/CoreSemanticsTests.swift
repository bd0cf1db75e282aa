// SPDX-License-Identifier: Apache-2.0

import Dispatch
import Foundation
import Testing

// @testable: a few checks compare contexts' internal storage (what a scope shares, what it
// copies), which no public API shows.
@testable import AmbientCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The core's edge semantics, each decided and documented where it is implemented.
@Suite struct CoreSemanticsTests {
    /// A value that counts its live instances, to see when a scope destroys what it holds.
    final class Counted: AmbientValue {
        static let live = Locked(0)
        static var defaultValue: Counted { Counted(name: "default", counted: false) }
        let name: String
        let counted: Bool
        init(name: String, counted: Bool = true) {
            self.name = name
            self.counted = counted
            if counted { Self.live.withLock { $0 += 1 } }
        }
        deinit { if counted { Self.live.withLock { $0 -= 1 } } }
    }

    @Test func aTypePassedTwiceInOneScopeKeepsTheLaterValueAndDestroysBoth() {
        // Decided: both values are held for the scope (one slot each, the later one found
        // first), the later is current, the type is listed once, and both go at scope end.
        let before = Counted.live.get()
        withInjected(Counted(name: "first"), Counted(name: "second")) {
            #expect(Counted.current.name == "second")
            #expect(InjectionContext.current.injectedTypes.count == 1)
            #expect(Counted.live.get() == before + 2)
        }
        #expect(Counted.live.get() == before)
        withInjected(Tag("a"), Counted(name: "x"), Tag("b")) {
            #expect(Tag.current == Tag("b"))
            #expect(Counted.current.name == "x")
        }
        #expect(Counted.live.get() == before)
    }

    @Test func runningTheEmptyContextIsTheSameAsNoBinding() async {
        // Decided: a binding that injects nothing is no binding. Code run in the empty
        // context reads everything as it would outside every scope — including an active
        // process-wide scope's values, as a legacy thread does. (A binding that injects
        // anything keeps a process-wide scope it was not made in out.)
        let limit = LegacyLimit(value: 42)
        await withInjectedProcessWide(limit) { () async in
            let fromEmpty = await Task.detached {
                InjectionContext().run { LegacyLimit.current }
            }.value
            #expect(fromEmpty == limit)
            let fromBound = await Task.detached {
                InjectionContext().injecting(Tag("other test")).run { LegacyLimit.current }
            }.value
            #expect(fromBound == LegacyLimit.defaultValue)
        }
    }

    @Test func anObjectMadeUnderStrictModeStaysStrictInItsCallbacks() {
        // A @Captured read falls back to the creating scope's strict mode: a callback on a
        // thread no scope reaches reports a read the test forgot to fake.
        final class Poller: Sendable {
            let tag = Captured<Tag>()
            let number = Captured<Number>()
        }
        let reported = Locked<[String]>([])
        let strict = StrictMode(allowing: [Number.self]) { type in reported.withLock { $0.append("\(type)") } }
        let poller = withInjected(strict) { Poller() }
        let read = onNewThread { (poller.tag.wrappedValue, poller.number.wrappedValue) }
        #expect(read.0 == Tag.defaultValue)
        #expect(read.1 == Number.defaultValue)
        #expect(reported.get() == ["Tag"])  // Number is allowed
    }

    #if canImport(Glibc)
    @Test func aScopeRunByALaterThreadExitDestructorDoesNotLeakItsStorage() {
        // Ambient's thread-exit hook releases the thread's spare storage. A scope that
        // another library's thread-exit destructor runs afterwards makes a new spare; the
        // hook is re-armed so pthreads calls it again and that spare is released too.
        LateScope.reset()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { _ in
                withInjected(Tag("warm the spare")) {}  // arms Ambient's hook (an older key)
                pthread_setspecific(LateScope.key, UnsafeRawPointer(bitPattern: 1))
                return nil
            }, nil)
        #expect(created == 0)
        pthread_join(thread, nil)
        #expect(LateScope.ran.get())
        #expect(LateScope.storageAlive() == nil, "the late scope's storage outlived its thread")
    }
    #endif
}

#if canImport(Glibc)
/// A pthread key created after Ambient's, whose destructor (run after Ambient's, in key
/// order) runs a scope and keeps a weak reference to its storage.
enum LateScope {
    final class WeakStorage: @unchecked Sendable {
        weak var storage: ContextStorage?
    }
    static let ran = Locked(false)
    static let weak = WeakStorage()

    static let key: pthread_key_t = {
        withInjected(Tag("make sure Ambient's key exists first")) {}
        var key = pthread_key_t()
        pthread_key_create(&key) { _ in
            withInjected(Tag("late")) {
                LateScope.weak.storage = InjectionContext.current.storage
            }
            LateScope.ran.set(true)
        }
        return key
    }()

    static func reset() {
        _ = key
        ran.set(false)
    }

    /// Whether the late scope's storage is still alive (read after the thread is joined).
    static func storageAlive() -> Bool? { weak.storage == nil ? nil : true }
}
#endif
