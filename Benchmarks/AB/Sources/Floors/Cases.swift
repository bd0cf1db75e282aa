// SPDX-License-Identifier: Apache-2.0

// Why: the floors' cases, outside main.swift so that their closures are nonisolated, as
// library code's are (main.swift's top-level closures are main-actor isolated).
import Ambient

/// The value every case moves: a trivially copyable struct, as the harness's `Stamp`.
struct Stamp: AmbientValue {
    let id: Int
    static var defaultValue: Stamp { Stamp(id: 0) }
}

/// A task-local as users declare one.
enum Request {
    @TaskLocal static var stamp = Stamp(id: 0)
}

/// A global `let` of the same type: the floor of a never-injected read.
let globalStamp = Stamp(id: 0)

/// A global `let` of the live clock: the floor of a never-injected `Clock.current`.
let liveClock = Clock.live

/// Where `sink` writes: a side effect the optimizer must keep.
nonisolated(unsafe) var sunk = 0

@inline(never)
func sink(_ value: Stamp, _ index: Int) { sunk = value.id &+ index }

/// `sink` for a clock: the floor of a never-injected `Clock.current` and the read hand it
/// their clock and the loop's index.
@inline(never)
func sink(_ clock: Clock, _ index: Int) { withExtendedLifetime(clock) { sunk = index } }

@inline(never)
func consume<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

let syncCases: [String: @Sendable (Int) -> Void] = [
    "floor: global let read": { count in for index in 0..<count { sink(globalStamp, index) } },
    "floor: global let read, Clock": { count in for index in 0..<count { sink(liveClock, index) } },
    "raw: TaskLocal read, bound": { count in
        Request.$stamp.withValue(Stamp(id: 1)) { for _ in 0..<count { consume(Request.stamp) } }
    },
    "raw: TaskLocal withValue (empty body)": { count in
        for index in 0..<count { Request.$stamp.withValue(Stamp(id: index)) { consume(index) } }
    },
]

let asyncCases: [String: @Sendable (Int) async -> Void] = [
    "raw: TaskLocal withValue async (empty body)": { count in
        for index in 0..<count { await Request.$stamp.withValue(Stamp(id: index)) { () async in consume(index) } }
    }
]
