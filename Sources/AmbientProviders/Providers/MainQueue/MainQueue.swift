// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Dispatch
import Foundation

// Why: legacy code defers work with `DispatchQueue.main.asyncAfter` and `Timer`, so a test
// of a 5-second retry waits 5 real seconds, or cannot wait at all. The same calls on an
// ambient value run on the real main queue, or on one a `TestClock` drives.

/// The ambient main queue: deferred and repeating main-actor work. Use it where code used
/// `DispatchQueue.main.async`, `DispatchQueue.main.asyncAfter(deadline:)` or
/// `Timer.scheduledTimer(withTimeInterval:repeats:block:)`.
///
/// ```swift
/// @MainActor final class Banner {
///     var isVisible = false
///     func flash() {
///         isVisible = true
///         MainQueue.current.asyncAfter(deadline: .now() + 5) { self.isVisible = false }
///     }
/// }
///
/// @MainActor @Test func theBannerHidesAfterFiveSeconds() async {
///     let testClock = TestClock()
///     let banner = Banner()
///     withInjected(MainQueue.driven(by: testClock)) { banner.flash() }
///     await testClock.advance(by: .seconds(4.9))
///     #expect(banner.isVisible)
///     await testClock.advance(by: .seconds(0.1))     // the work has run when this returns
///     #expect(!banner.isVisible)
/// }
/// ```
///
/// Work runs on the main actor, inside the scope that scheduled it (its injected values),
/// on the live queue and on a driven one alike.
///
/// On a queue `driven(by:)` a `TestClock` (AmbientTestClock's, which `import AmbientTesting`
/// brings), time moves only when the test moves it: `advance(by: .seconds(5))` runs the work
/// due in those 5 seconds, in deadline order (work due at the same time in the order it was
/// scheduled), each piece at its own deadline, and returns once it has run — and once the
/// tasks it started have settled, as for any work the clock wakes (a task it starts on the
/// main actor is not counted: see `TestClock.counting(_:)`). The test awaiting `advance`
/// must not hold the main actor synchronously (awaiting is fine: a `@MainActor` test
/// suspends there).
public struct MainQueue: AmbientValue, CustomStringConvertible {
    /// The test clock's driver, or `.live` for the live queue (``LiveOr`` says why not an
    /// optional).
    @usableFromInline
    package let state: LiveOr<SeamBox<any MainQueueDriver>>

    /// The test clock's driver of a driven main queue; `nil` for the live one. For
    /// ``followingCurrent``, the current main queue's.
    var driver: (any MainQueueDriver)? {
        state.resolved(following: MainQueue.current.state)?.wrapped
    }

    private init(following: Void) {
        state = .following
    }

    @inlinable
    package init(driver: (any MainQueueDriver)?) {
        state = LiveOr(driver.map(SeamBox.init))
    }

    /// `DispatchQueue.main`.
    public static let live = MainQueue(driver: nil)

    /// The main queue ``AmbientValue/current`` is wherever this value is used, not where it was taken: each
    /// submission goes to the current one. What the one-file port's `DispatchQueue.main` and
    /// `OperationQueue.main` are, so that a main queue kept in a property (made before a
    /// test's scope) submits to the queue the running test's clock drives.
    ///
    /// Injected itself, it is the live main queue.
    public static let followingCurrent = MainQueue(following: ())

    /// The system's main Dispatch queue itself, whatever this queue is, for an API that
    /// needs a `DispatchQueue` (`dispatchPrecondition(condition: .onQueue(MainQueue.current.system))`,
    /// a Dispatch source): what it runs is neither carried nor driven by a test clock. In a
    /// module that adopts Ambient by its one file, where `DispatchQueue.main` is the current
    /// main queue, `.main.system` is the system's.
    public var system: DispatchQueue { .main }

    /// The system's main operation queue itself, for an API that needs an `OperationQueue`:
    /// as ``system``, neither carried nor driven (`.main.systemOperationQueue` in a module
    /// that adopts Ambient by its one file).
    public var systemOperationQueue: OperationQueue { .main }

    /// The live main queue, built in place (inlinable: no lazy global's check).
    @inlinable
    public static var defaultValue: MainQueue {
        MainQueue(driver: nil)
    }

    /// `MainQueue.live`, or the test clock that drives it.
    public var description: String {
        if state.isFollowing { return "MainQueue.followingCurrent" }
        guard let driver else { return "MainQueue.live" }
        return driver.description
    }

    /// When deferred work runs, written as for Dispatch: `.now() + 5` (seconds),
    /// `.now() + .milliseconds(300)`. It is a delay from the moment the work is scheduled,
    /// so on a driven queue `.now()` is the test clock's time, not the wall clock's.
    public struct Deadline: Sendable, Hashable, Comparable {
        /// How long after scheduling.
        public let delay: Duration

        init(delay: Duration) {
            self.delay = delay
        }

        /// The moment of scheduling.
        public static func now() -> Deadline {
            Deadline(delay: .zero)
        }

        /// `seconds` later.
        public static func + (deadline: Deadline, seconds: Double) -> Deadline {
            deadline.adding(seconds: seconds)
        }

        /// `seconds` later: `+`'s work, by name for code that cannot see the operator (a
        /// module's file that does not import Ambient, where the one-file port declares `+`
        /// again and calls this).
        public func adding(seconds: Double) -> Deadline {
            Deadline(delay: delay + .nanoseconds(Int64((seconds * 1e9).rounded())))
        }

        /// `duration` later.
        public static func + (deadline: Deadline, duration: Duration) -> Deadline {
            Deadline(delay: deadline.delay + duration)
        }

        /// `interval` later (`.never` is taken as never: the work is dropped). Disfavoured, so
        /// that `.now() + .milliseconds(300)` means the same `Duration` either way.
        @_disfavoredOverload
        public static func + (deadline: Deadline, interval: DispatchTimeInterval) -> Deadline {
            deadline.adding(interval)
        }

        /// `interval` later (`.never`: never): `+`'s work, by name, as ``adding(seconds:)``.
        public func adding(_ interval: DispatchTimeInterval) -> Deadline {
            switch interval {
            case .seconds(let value): return self + Duration.seconds(value)
            case .milliseconds(let value): return self + Duration.milliseconds(value)
            case .microseconds(let value): return self + Duration.microseconds(value)
            case .nanoseconds(let value): return self + Duration.nanoseconds(value)
            case .never: return Self.never
            @unknown default: return self
            }
        }

        /// The delay from now until `time` on Dispatch's clock (`.distantFuture`: never; a time
        /// already past: now): a Dispatch deadline, written out, as a carrying queue takes it.
        ///
        /// ```swift
        /// queue.asyncAfter(deadline: MainQueue.Deadline(DispatchTime.now() + 5)) { retry() }
        /// ```
        public init(_ time: DispatchTime) {
            if time == .distantFuture {
                self = Self.never
                return
            }
            let now = DispatchTime.now().uptimeNanoseconds
            let until = time.uptimeNanoseconds
            delay = until > now ? .nanoseconds(Int64(clamping: until - now)) : .zero
        }

        /// Never: work scheduled for it is dropped, as Dispatch drops it.
        static let never = Deadline(delay: .seconds(Int64.max))

        /// Earlier first.
        public static func < (lhs: Deadline, rhs: Deadline) -> Bool {
            lhs.delay < rhs.delay
        }
    }

    /// `DispatchQueue.main.async(execute:)`: runs `work` on the main actor soon (on a
    /// driven queue: at the test clock's current time, without waiting for an `advance`).
    ///
    /// Under a tracked or driven ``BackgroundQueue`` the work is counted until it has run,
    /// so `finished()` (and, driven, `advance`) waits for main-queue work too. The file and
    /// line name the submission in a report of work left pending; leave their defaults.
    public func async(
        fileID: StaticString = #fileID, line: UInt = #line, execute work: @escaping @MainActor @Sendable () -> Void
    ) {
        schedule(
            after: .zero, repeating: nil, timer: nil, site: (fileID, line, "MainQueue.async"), work: { _ in work() })
    }

    /// `DispatchQueue.main.asyncAfter(deadline:execute:)`: runs `work` on the main actor
    /// once `deadline` has come. Counted as ``async(fileID:line:execute:)`` is: on the live
    /// queue from now, on a driven one from its deadline.
    public func asyncAfter(
        deadline: Deadline, fileID: StaticString = #fileID, line: UInt = #line,
        execute work: @escaping @MainActor @Sendable () -> Void
    ) {
        guard deadline.delay < Deadline.never.delay else { return }
        schedule(
            after: deadline.delay, repeating: nil, timer: nil, site: (fileID, line, "MainQueue.asyncAfter"),
            work: { _ in work() })
    }

    /// `RunLoop.main.add(timer, forMode:)`: schedules a timer made with
    /// ``Timer/init(fire:interval:repeats:block:)``, to fire first at its date on the
    /// current clock (at once if that has passed), on this queue. A timer already scheduled
    /// is left as it is, as `RunLoop` leaves a timer added twice.
    public func add(_ timer: Timer) {
        guard let plan = timer.takeUnscheduled() else { return }
        let wait = max(plan.fireDate.timeIntervalSince(Clock.current.now), 0)
        let delay = Duration.nanoseconds(Int64((wait * 1e9).rounded()))
        let interval = Duration.nanoseconds(Int64((max(timer.timeInterval, 0.0001) * 1e9).rounded()))
        let block = plan.block
        schedule(after: delay, repeating: plan.repeats ? interval : nil, timer: timer, site: nil) { _ in block(timer) }
    }

    /// `Timer.scheduledTimer(withTimeInterval:repeats:block:)`: runs `block` on the main
    /// actor after `interval` seconds, and every `interval` after that if it `repeats`,
    /// until the timer is invalidated.
    ///
    /// ```swift
    /// let timer = MainQueue.current.scheduledTimer(withTimeInterval: 1, repeats: true) { _ in tick() }
    /// …
    /// timer.invalidate()
    /// ```
    @discardableResult
    public func scheduledTimer(
        withTimeInterval interval: TimeInterval, repeats: Bool,
        block: @escaping @MainActor @Sendable (Timer) -> Void
    ) -> Timer {
        let delay = Duration.nanoseconds(Int64((max(interval, 0.0001) * 1e9).rounded()))
        let timer = Timer(timeInterval: interval)
        schedule(after: delay, repeating: repeats ? delay : nil, timer: timer, site: nil, work: { _ in block(timer) })
        return timer
    }

    private func schedule(
        after delay: Duration, repeating interval: Duration?, timer: Timer?,
        site: (fileID: StaticString, line: UInt, call: StaticString)?,
        work: @escaping @MainActor @Sendable (Timer?) -> Void
    ) {
        let context = InjectionContext.current
        // One-off work (a timer is not) under a tracked or driven background queue is
        // counted there, so its waits cover the main queue: from now, or on a driven main
        // queue from its deadline (`advance` already waits for work due on the way).
        let ticket: WorkTicket?
        if let site, let background = BackgroundQueue.current.work, driver == nil || delay == .zero {
            ticket = background.admit(
                Submission(call: site.call, queue: nil, fileID: site.fileID, line: site.line, waiting: .mainQueue))
        } else if driver == nil, let own = IssueReporter.current.pendingWork?.workOutsideQueues {
            // The live main queue in a test that no tracked queue covers: the test's own count
            // holds one-off work until it has run, and a timer until it is invalidated, so the
            // test's end reports what it left there.
            if let site {
                ticket = own.admit(
                    Submission(call: site.call, queue: nil, fileID: site.fileID, line: site.line, waiting: .mainQueue))
            } else {
                ticket = nil
                if let timer {
                    let id = own.begin(Submission(timer: interval == nil ? "Timer" : "Timer, repeating"))
                    timer.onInvalidate { own.end(id) }
                }
            }
        } else {
            ticket = nil
        }
        let bound: @MainActor @Sendable () -> Void = {
            guard timer?.isValid ?? true else { return }
            ticket?.started()
            context.run { work(timer) }
            ticket?.finished()
            // A timer that does not repeat invalidates itself once it has fired, as
            // Foundation's does.
            if interval == nil { timer?.invalidate() }
        }
        if let driver {
            driver.schedule(after: delay, repeating: interval, timer: timer, work: bound)
        } else {
            LiveMainQueue.schedule(after: delay, repeating: interval, timer: timer, work: bound)
        }
    }
}
