// SPDX-License-Identifier: Apache-2.0

// Why: the rows `../ab` times against the previous head: the scopes (one and three values,
// with and without the Logger whose scope binds swift-log's task-local too, sync on a thread
// and in a task, async), a captured context's `run`, and the reads of the providers. Only
// API every head has had, so the previous head's library builds this file too. The raw rows
// do not use Ambient at all: the same in both builds, they show what the machine did.
import Ambient
import Foundation

/// A trivially copyable value.
struct Stamp: AmbientValue {
    let id: Int
    static var defaultValue: Stamp { Stamp(id: 0) }
}

/// A task-local as users declare one.
enum Request {
    @TaskLocal static var stamp = Stamp(id: 0)
}

let noon = Clock.fixed(Date(timeIntervalSince1970: 43_200))
let defaults = Defaults.inMemory(["k": "v"])
let logger = Logger.discarding
let uuids = UUIDGenerator.incrementing

@inline(never)
func consume<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// An async body's call, as Benchmarks/run's async scope rows make it.
@inline(never)
func asyncSink<T>(_ value: T) async {
    withExtendedLifetime(value) {}
}

/// A loop of reads of `V` in a process that never injects anything (each case runs in a
/// process of its own).
func neverInjected<V: AmbientValue>(_: V.Type) -> @Sendable (Int) -> Void {
    { count in for _ in 0..<count { consume(V.current) } }
}

/// Runs `body` in a task and waits (the task column of Benchmarks/run).
func inTask(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        body()
        done.signal()
    }
    done.wait()
}

private let scopes: [String: @Sendable (Int) -> Void] = [
    "raw: TaskLocal withValue": { count in
        for index in 0..<count { Request.$stamp.withValue(Stamp(id: index)) { consume(index) } }
    },
    "scope: withInjected, 1 value": { count in
        for _ in 0..<count { withInjected(noon) { consume(Clock.current) } }
    },
    "scope: withInjected, 3 values": { count in
        for _ in 0..<count { withInjected(noon, defaults, logger) { consume(Clock.current) } }
    },
    "scope: withInjected, 3 values, no Logger": { count in
        for _ in 0..<count { withInjected(noon, defaults, uuids) { consume(Clock.current) } }
    },
    "context: run": { count in
        let context = InjectionContext().injecting(noon)
        for _ in 0..<count { context.run { consume(Clock.current) } }
    },
]

/// The rows that also run in a task (the others run on a plain thread only: the main thread,
/// outside any task).
private let alsoInATask: Set = ["scope: withInjected, 1 value", "scope: withInjected, 3 values"]

let syncCases: [String: @Sendable (Int) -> Void] = {
    var cases: [String: @Sendable (Int) -> Void] = [:]
    for (name, body) in scopes {
        cases[name + " [thread]"] = body
        if alsoInATask.contains(name) { cases[name + " [task]"] = { count in inTask { body(count) } } }
    }
    cases["read: scope of 1 [thread]"] = { count in
        withInjected(noon) { for _ in 0..<count { consume(Clock.current) } }
    }
    cases["read: never injected, Clock [thread]"] = neverInjected(Clock.self)
    cases["read: never injected, Region [thread]"] = neverInjected(Region.self)
    cases["read: never injected, ProcessEnvironment [thread]"] = neverInjected(ProcessEnvironment.self)
    cases["read: never injected, FileSystem [thread]"] = neverInjected(FileSystem.self)
    cases["read: never injected, Notifications [thread]"] = neverInjected(Notifications.self)
    cases["read: never injected, NetworkSession [thread]"] = neverInjected(NetworkSession.self)
    cases["read: never injected, MainQueue [thread]"] = neverInjected(MainQueue.self)
    return cases
}()

let asyncCases: [String: @Sendable (Int) async -> Void] = [
    "raw: TaskLocal withValue async [task]": { count in
        for index in 0..<count { await Request.$stamp.withValue(Stamp(id: index)) { () async in consume(index) } }
    },
    "scope: withInjected async, 1 value [task]": { count in
        for _ in 0..<count { await withInjected(noon) { await asyncSink(Clock.current) } }
    },
    "scope: withInjected async, 3 values [task]": { count in
        for _ in 0..<count { await withInjected(noon, defaults, logger) { await asyncSink(Clock.current) } }
    },
    "scope: withInjected async, 3 values, no Logger [task]": { count in
        for _ in 0..<count { await withInjected(noon, defaults, uuids) { await asyncSink(Clock.current) } }
    },
]
