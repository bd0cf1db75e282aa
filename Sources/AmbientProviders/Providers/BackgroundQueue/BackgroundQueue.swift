// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Dispatch
import Foundation

// Why: legacy code's background work is where an injected value gets lost, and a test of it
// waits with sleeps because nothing says when that work is done. The background queues
// carry the submitter's scope by themselves, and this value says, per scope, whether their
// work runs live, live and counted, or in one order a `TestClock` drives.

/// The ambient background queue: `DispatchQueue.global()` for code that reads it as
/// `BackgroundQueue.current`, and what every ``CarryingQueue`` does with the work submitted
/// in a scope — run it on Dispatch (``live``), run it on Dispatch and count it until it has
/// finished (`tracked()`), or run it in one deterministic order driven by a `TestClock`
/// (`driven(by:)`). The two test forms and the waits are AmbientTestClock's, which
/// `import AmbientTesting` brings.
///
/// Every submission carries the submitter's scope (its injected values), whatever the form:
///
/// ```swift
/// // was: DispatchQueue.global().async { self.refresh() }
/// BackgroundQueue.current.async { self.refresh() }     // refresh() sees the caller's values
/// ```
///
/// A test waits for the work its scope started, and for what that work sent on, without an
/// expectation or a sleep:
///
/// ```swift
/// @Test func theCacheIsWarmedInTheBackground() async {
///     let background = BackgroundQueue.tracked()
///     let defaults = Defaults.inMemory()
///     withInjected(background, defaults) { ImageCache.shared.warmUp() }   // submits work
///     await background.finished()                                        // all of it has run
///     #expect(defaults.integer(forKey: "warmed") == 3)
/// }
/// ```
///
/// On a queue `driven(by:)` a test clock, work runs one piece at a time in the order it was
/// submitted, across every carrying queue, and `asyncAfter` waits for the test clock:
/// `advance(by:)` runs the work due on the way and returns once it, and any work it submitted,
/// has run.
public struct BackgroundQueue: AmbientValue, CustomStringConvertible {
    /// The object that counts (and, driven, orders) the work, or `.live` (``LiveOr`` says why
    /// not an optional).
    @usableFromInline
    package let state: LiveOr<SeamBox<any CountedWork>>

    @inlinable
    package init(work: (any CountedWork)?) {
        state = LiveOr(work.map(SeamBox.init))
    }

    /// The object that counts the work submitted where this queue is injected; `nil` for
    /// the live queue.
    package var work: (any CountedWork)? {
        state.object?.wrapped
    }

    /// Dispatch's queues, as they are: work runs when Dispatch runs it, nothing counts it.
    public static let live = BackgroundQueue(work: nil)

    /// The live form, built in place (inlinable: no lazy global's check).
    @inlinable
    public static var defaultValue: BackgroundQueue {
        BackgroundQueue(work: nil)
    }

    /// `BackgroundQueue.live`, `.tracked()` or `.driven(by:)` with its clock.
    public var description: String {
        work.map { "\($0)" } ?? "BackgroundQueue.live"
    }

    // MARK: - DispatchQueue.global()'s surface

    /// `DispatchQueue.global(qos:).async(group:flags:execute:)`: `work` runs in the
    /// background, inside the caller's scope.
    public func async(
        qos: DispatchQoS.QoSClass = .default, group: DispatchGroup? = nil, flags: DispatchWorkItemFlags = [],
        fileID: StaticString = #fileID, line: UInt = #line,
        execute work: @escaping @Sendable () -> Void
    ) {
        CarryingQueue.global(qos: qos).async(group: group, flags: flags, fileID: fileID, line: line, execute: work)
    }

    /// `DispatchQueue.global(qos:).asyncAfter(deadline:execute:)`: `work` runs once
    /// `deadline` has come (on a driven queue: the test clock's), inside the caller's scope.
    public func asyncAfter(
        deadline: CarryingQueue.Deadline, qos: DispatchQoS.QoSClass = .default,
        fileID: StaticString = #fileID, line: UInt = #line,
        execute work: @escaping @Sendable () -> Void
    ) {
        CarryingQueue.global(qos: qos).asyncAfter(deadline: deadline, fileID: fileID, line: line, execute: work)
    }

    /// `DispatchQueue.concurrentPerform(iterations:execute:)`: `work` runs once per index,
    /// in parallel, each inside the caller's scope; on a driven queue, one index after the
    /// other in order, on this thread. Returns when all have.
    public func concurrentPerform(iterations: Int, execute work: (Int) -> Void) {
        CarryingQueue.concurrentPerform(iterations: iterations, execute: work)
    }
}
