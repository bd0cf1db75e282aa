// SPDX-License-Identifier: Apache-2.0

// Why: the reads, scopes and their floors, nonisolated as library code is (main.swift says
// why they are not there).
import Ambient
import Foundation

/// A trivially copyable value, as the time benchmarks read.
struct Stamp: AmbientValue {
    let id: Int
    static var defaultValue: Stamp { Stamp(id: 0) }
}

/// A second type, injected where `Stamp` is not.
struct Other: AmbientValue {
    let id: Int
    static var defaultValue: Other { Other(id: 0) }
}

/// A main-actor singleton, as app code has them.
final class Session: MainActorAmbientValue {
    static let shared = Session()
    static var defaultValue: Session { shared }
    var user = "live"
}

/// The same class shape as an `AmbientValue`, to compare with `Session`.
final class SessionValue: AmbientValue {
    static let shared = SessionValue()
    static var defaultValue: SessionValue { shared }
    let user = "live"
}

@inline(never)
func consume<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// A task-local as users declare one: the floor of the scope and bound-read budgets, spelled
/// as in Floors (AB/), which `instructions --check` counts alone and compares.
enum Request {
    @TaskLocal static var stamp = Stamp(id: 0)
}

/// The floor of a never-injected read: a global `let` of the same type.
let globalStamp = Stamp(id: 0)

/// A global `let` of the live clock: the floor of a never-injected `Clock.current`.
let liveClock = Clock.live

/// Where `sink` writes: a side effect the optimizer must keep.
nonisolated(unsafe) var sunk = 0

/// A sink the optimizer cannot drop, so a loop of global reads is not deleted: the floor and
/// the read it is the floor of both hand it their value and the loop's index (so both loops
/// keep the same shape).
@inline(never)
func sink(_ value: Stamp, _ index: Int) { sunk = value.id &+ index }

/// `sink` for a clock: the floor of a never-injected `Clock.current` and the read hand it
/// their clock and the loop's index.
@inline(never)
func sink(_ clock: Clock, _ index: Int) { withExtendedLifetime(clock) { sunk = index } }

/// The cases, each a loop of `count` operations. Synchronous ones run on the main thread,
/// outside any task (the thread path); `async` ones in a detached task.
let cases: [String: @Sendable (Int) -> Void] = [
    "floor: global let read": { count in for index in 0..<count { sink(globalStamp, index) } },
    "floor: global let read, Clock": { count in for index in 0..<count { sink(liveClock, index) } },
    "read: never injected, into the same sink": { count in
        for index in 0..<count { sink(Stamp.current, index) }
    },
    "read: never injected": { count in for _ in 0..<count { consume(Stamp.current) } },
    // The system singletons' providers' reads when never injected, beside Clock's.
    "read: never injected, Clock": { count in for _ in 0..<count { consume(Clock.current) } },
    "read: never injected, Clock, into the same sink": { count in
        for index in 0..<count { sink(Clock.current, index) }
    },
    "read: never injected, Region": { count in for _ in 0..<count { consume(Region.current) } },
    "read: never injected, ProcessEnvironment": { count in
        for _ in 0..<count { consume(ProcessEnvironment.current) }
    },
    "read: never injected, FileSystem": { count in for _ in 0..<count { consume(FileSystem.current) } },
    "read: never injected, Notifications": { count in for _ in 0..<count { consume(Notifications.current) } },
    "read: never injected, NetworkSession": { count in for _ in 0..<count { consume(NetworkSession.current) } },
    "read: never injected, MainQueue": { count in for _ in 0..<count { consume(MainQueue.current) } },
    "read: scope of 1": { count in
        withInjected(Stamp(id: 1)) { for _ in 0..<count { consume(Stamp.current) } }
    },
    "read: injected elsewhere, unbound here": { count in
        withInjected(Other(id: 1)) { for _ in 0..<count { consume(Stamp.current) } }
    },
    "read: MainActorAmbientValue, scope of 1": { count in
        MainActor.assumeIsolated {
            withInjected(Session()) { for _ in 0..<count { consume(Session.current) } }
        }
    },
    "read: AmbientValue class, scope of 1": { count in
        withInjected(SessionValue()) { for _ in 0..<count { consume(SessionValue.current) } }
    },
    "raw: TaskLocal read, bound": { count in
        Request.$stamp.withValue(Stamp(id: 1)) { for _ in 0..<count { consume(Request.stamp) } }
    },
    "scope: withInjected, 1 value (empty body)": { count in
        for index in 0..<count { withInjected(Stamp(id: index)) { consume(index) } }
    },
    "scope: withInjected, 3 values (empty body)": { count in
        let noon = Clock.fixed(Date(timeIntervalSince1970: 43_200))
        for index in 0..<count { withInjected(Stamp(id: index), Other(id: index), noon) { consume(index) } }
    },
    "raw: TaskLocal withValue (empty body)": { count in
        for index in 0..<count { Request.$stamp.withValue(Stamp(id: index)) { consume(index) } }
    },
    "context: run": { count in
        let context = InjectionContext().injecting(Stamp(id: 2))
        for _ in 0..<count { context.run { consume(Stamp.current) } }
    },
]

let asyncCases: [String: @Sendable (Int) async -> Void] = [
    "scope: withInjected async, 1 value (empty body)": { count in
        for index in 0..<count { await withInjected(Stamp(id: index)) { () async in consume(index) } }
    },
    "swift-log channel: withInjected(Logger) async (empty body)": { count in
        let logger = Logger.discarding
        for index in 0..<count { await withInjected(logger) { () async in consume(index) } }
    },
    "raw: TaskLocal withValue async (empty body)": { count in
        for index in 0..<count {
            await Request.$stamp.withValue(Stamp(id: index)) { () async in consume(index) }
        }
    },
]
