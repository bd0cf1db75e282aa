// SPDX-License-Identifier: Apache-2.0

// Why: the rest of the hot paths whose allocations Allocations records (the time benchmarks
// have the same rows): deep and wide reads, captured contexts, binding, the process-wide
// scope, a forged request, and the swift-log bridges' entries.
import Ambient
import CarryingFixtures
import Foundation
import LogFixtures
import Logging

/// A type injected only to stand between a read and the scope that holds its value.
struct Filler: AmbientValue {
    let value: Int
    static var defaultValue: Filler { Filler(value: 0) }
}

/// An object that captures the clock of the scope that made it.
final class ClockUser: @unchecked Sendable {
    // @unchecked: the wrapper is written only by `init`.
    @Captured var clock: Clock
}

/// `depth` nested scopes: the outermost injects the clock read, each inner one another type.
func nested(_ depth: Int, _ body: () -> Void) {
    func level(_ remaining: Int) {
        if remaining == 0 { return body() }
        withInjected(Filler(value: remaining)) { level(remaining - 1) }
    }
    withInjected(Clock.fixed(Date(timeIntervalSince1970: 43_200))) { level(depth - 1) }
}

let allocationCases: [String: @Sendable (Int) -> Void] = [
    "read: scope of 3, each": { count in
        let noon = Clock.fixed(Date(timeIntervalSince1970: 43_200))
        withInjected(noon, Defaults.inMemory(["k": "v"]), Ambient.Logger.discarding) {
            for _ in 0..<count {
                consume(Clock.current)
                consume(Defaults.current)
                consume(Ambient.Logger.current)
            }
        }
    },
    "read: 100 nested scopes": { count in
        nested(100) { for _ in 0..<count { consume(Clock.current) } }
    },
    "read: process-wide scope": { count in
        withInjectedProcessWide(Clock.fixed(Date(timeIntervalSince1970: 43_200))) {
            for _ in 0..<count { consume(Clock.current) }
        }
    },
    "read: @Captured, in a scope": { count in
        withInjected(Clock.fixed(Date(timeIntervalSince1970: 43_200))) {
            let object = ClockUser()
            for _ in 0..<count { consume(object.clock) }
        }
    },
    "read: @Captured, outside any scope": { count in
        let object = withInjected(Clock.fixed(Date(timeIntervalSince1970: 43_200))) { ClockUser() }
        for _ in 0..<count { consume(object.clock) }
    },
    "context: InjectionContext.current capture": { count in
        withInjected(Stamp(id: 1)) { for _ in 0..<count { consume(InjectionContext.current) } }
    },
    "context: bind + call": { count in
        withInjected(Stamp(id: 1)) {
            for _ in 0..<count {
                let bound = InjectionContext.current.bind { Stamp.current }
                consume(bound())
            }
        }
    },
    "carrying: reject two altered fields": { count in
        let forged = signedHeaders(as: .fields).merging(["ambient-flags": "admin"]) { $1 }
        let (carried, trust) = (carryingTypes, carryingTrust)
        for _ in 0..<count { consume(carried.decodeSkippingInvalid(forged, trusting: trust)) }
    },
    "bridge: swift-log entry into Logger.current (AmbientLogHandler)": { count in
        let bridged = Logging.Logger(label: "count", factory: AmbientLogHandler.init)
        withInjected(Ambient.Logger(sink: ConsumingLogSink(), level: .trace)) {
            for index in 0..<count { bridged.info("entry", metadata: ["index": "\(index)"]) }
        }
    },
    "bridge: Ambient entry into swift-log (Logger.bridging)": { count in
        let dropping = Logging.Logger(label: "count") { _ in ConsumingLogHandler() }
        withInjected(Ambient.Logger.bridging(to: dropping)) {
            for index in 0..<count { Ambient.Logger.current.info("entry", metadata: ["index": "\(index)"]) }
        }
    },
]

let asyncAllocationCases: [String: @Sendable (Int) async -> Void] = [
    "scope: withInjected async, 3 values (empty body)": { count in
        let noon = Clock.fixed(Date(timeIntervalSince1970: 43_200))
        for index in 0..<count {
            await withInjected(Stamp(id: index), Other(id: index), noon) { () async in consume(index) }
        }
    }
]
