// SPDX-License-Identifier: Apache-2.0

// What the SwiftLog trait's one logging channel costs (this package builds Ambient with the
// trait on): reads of either Logger.current, and scopes that inject a logger, which bind
// swift-log's task-local logger too.
import Ambient
import Foundation
import Logging

// Why: the trait's costs are rows beside the reads and scopes they add to, on every machine.

let swiftLogChannelCases: [String: @Sendable (Int) -> Void] = [
    "swift-log channel: Ambient.Logger.current, nothing injected": { count in
        for _ in 0..<count { consume(Ambient.Logger.current) }
    },
    "swift-log channel: Ambient.Logger.current, a Logger injected": { count in
        withInjected(Ambient.Logger.discarding) {
            for _ in 0..<count { consume(Ambient.Logger.current) }
        }
    },
    "swift-log channel: Logging.Logger.current, a Logger injected": { count in
        withInjected(Ambient.Logger.discarding) {
            for _ in 0..<count { consume(Logging.Logger.current) }
        }
    },
    "swift-log channel: withInjected(Logger), binds swift-log's too (empty body)": { count in
        let logger = Ambient.Logger.discarding
        for _ in 0..<count { withInjected(logger) {} }
    },
    "swift-log channel: withInjected(Clock) inside a Logger scope (empty body)": { count in
        let clock = Clock.fixed(Date(timeIntervalSinceReferenceDate: 0))
        withInjected(Ambient.Logger.discarding) {
            for _ in 0..<count { withInjected(clock) {} }
        }
    },
    "swift-log channel: withInjected(Logger) inside a Logger scope (empty body)": { count in
        let logger = Ambient.Logger.discarding
        withInjected(Ambient.Logger.discarding) {
            for _ in 0..<count { withInjected(logger) {} }
        }
    },
    // The three values `Benchmarks/run`'s "scope: withInjected, 3 values" injects: with the
    // trait on, its Logger binds swift-log's task-local too.
    "swift-log channel: withInjected(Clock, Defaults, Logger) (empty body)": { count in
        let clock = Clock.fixed(Date(timeIntervalSinceReferenceDate: 0))
        let defaults = Defaults.inMemory()
        let logger = Ambient.Logger.discarding
        for _ in 0..<count { withInjected(clock, defaults, logger) {} }
    },
    "swift-log channel: InjectionContext.run, a captured context with a Logger": { count in
        let context = InjectionContext().injecting(Ambient.Logger.discarding)
        for _ in 0..<count { context.run {} }
    },
]
