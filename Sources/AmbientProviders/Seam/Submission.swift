// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: work still pending when a wait gives up, or when a test ends, is named by where it was
// submitted and by what it waits for, so the report says which line to look at.

/// One piece of work a tracked or driven ``BackgroundQueue`` counts: where it was submitted,
/// how, and what it waits for now.
@usableFromInline
package struct Submission: Sendable {
    /// What it waits for, as a report says it.
    @usableFromInline
    package enum Waiting: Sendable {
        /// Submitted, not yet started: behind earlier work on its queue (driven: in the one
        /// driven order).
        case queued
        /// Running now.
        case running
        /// Driven work that runs once the test clock reaches this instant.
        case deadline(Clock.Instant)
        /// A `DispatchGroup` notification, waiting for the group to empty.
        case group
        /// An operation, waiting for its dependencies and its queue.
        case operation
        /// A thread's block, asleep on the test clock until this instant.
        case asleep(Clock.Instant)
        /// Main-queue work, waiting for the main actor.
        case mainQueue
        /// A thread's block, asleep in real time (on the live clock) until this instant.
        case asleepInRealTime(ContinuousClock.Instant)
        /// A main-queue timer, scheduled and not yet invalidated.
        case timer
    }

    /// The call that submitted it (`asyncAfter`), and the queue it was called on, if any:
    /// kept as they are and described only for a report.
    package let call: StaticString
    package let queue: CarryingQueue?
    package let fileID: StaticString
    package let line: UInt
    package var waiting: Waiting

    /// An operation queue's: Foundation's overridden methods take no call site.
    package init(operation call: StaticString) {
        self.init(call: call, queue: nil, fileID: "CarryingOperationQueue", line: 0, waiting: .operation)
    }

    /// A live main-queue timer's, counted until it is invalidated: its constructors take no
    /// call site.
    package init(timer call: StaticString) {
        self.init(call: call, queue: nil, fileID: "MainQueue", line: 0, waiting: .timer)
    }

    package init(call: StaticString, queue: CarryingQueue?, fileID: StaticString, line: UInt, waiting: Waiting) {
        self.call = call
        self.queue = queue
        self.fileID = fileID
        self.line = line
        self.waiting = waiting
    }

    /// `Inbox/Inbox.swift:42: CarryingQueue(inbox).asyncAfter, waiting for the test clock to reach
    /// +5.000 s (it is at +3.000 s)`.
    package func described(clockNow now: Clock.Instant?) -> String {
        let call = queue.map { "\($0).\(self.call)" } ?? "\(self.call)"
        // With no line, `fileID` names what made it (an operation queue, a timer).
        let site = line == 0 ? "\(fileID)" : "\(fileID):\(line)"
        return "\(site): \(call), " + describe(waiting, now: now)
    }

    private func describe(_ waiting: Waiting, now: Clock.Instant?) -> String {
        let at = now.map { " (it is at \(Self.time($0)))" } ?? ""
        switch waiting {
        case .queued: return "queued behind earlier work"
        case .running: return "running (work that never ends, or that waits for the test?)"
        case .deadline(let deadline): return "waiting for the test clock to reach \(Self.time(deadline))\(at)"
        case .group: return "waiting for its DispatchGroup to empty (an enter() without its leave()?)"
        case .operation: return "an operation waiting for its dependencies or its queue"
        case .asleep(let deadline): return "a thread asleep on the test clock until \(Self.time(deadline))\(at)"
        case .mainQueue: return "waiting for the main queue (is the main actor blocked, by a synchronous wait?)"
        case .asleepInRealTime(let until):
            let left = max(until - ContinuousClock.now, .zero).timeInterval
            return "a thread asleep in real time, " + String(format: "%.3f s", left) + " more"
        case .timer: return "a timer still scheduled (invalidate it before the test ends)"
        }
    }

    /// `+5.000 s`: an instant as the time advanced to it.
    package static func time(_ instant: Clock.Instant) -> String {
        "+" + String(format: "%.3f s", instant.offset.timeInterval)
    }

    /// Whether only the test clock can move it on.
    package var waitsForTheTestClock: Bool {
        switch waiting {
        case .asleep, .deadline: return true
        default: return false
        }
    }
}
