// SPDX-License-Identifier: Apache-2.0

import Ambient
import XCTest

// Why: XCTest users get the same per-test injection as Swift Testing's traits.

/// An `XCTestCase` that injects ambient values around every test method.
///
/// ```swift
/// final class ReminderTests: InjectingTestCase {
///     override var injections: InjectionContext {
///         InjectionContext().injecting(Clock.fixed(noon), Defaults.inMemory())
///     }
///     override var strictModeAllowing: [any Injectable.Type]? { [Logger.self] }  // optional
///
///     func testDueDate() {
///         XCTAssertEqual(nextDue(), noon.addingTimeInterval(3_600))
///     }
///
///     func testOneOff() {
///         withInjected(Clock.fixed(midnight)) { … }   // a single test: plain withInjected
///     }
/// }
/// ```
///
/// `injections` is read afresh for every test method, so each gets new fakes. It is read on
/// the main actor (XCTest runs every test method from the main thread), so it may build
/// main-actor values — a `MainActorAmbientValue` singleton's fake — as they are.
///
/// In a target that isolates to the main actor by default (Xcode 26's app targets), declare
/// the class `nonisolated` — XCTest's `XCTestCase` is not main-actor-isolated, and a
/// subclass may not differ — and mark `@MainActor` the test methods that touch main-actor
/// code and an `injections` that builds main-actor values:
///
/// ```swift
/// nonisolated final class CheckoutTests: InjectingTestCase {
///     @MainActor override var injections: InjectionContext {
///         InjectionContext().injecting(AnalyticsClient(), Defaults.inMemory())
///     }
///
///     @MainActor func testPayIsTracked() {
///         CheckoutViewModel().pay()
///         XCTAssertEqual(AnalyticsClient.current.events, ["pay"])
///     }
/// }
/// ```
open class InjectingTestCase: XCTestCase {
    /// The values to inject around each test method. Empty unless overridden. Read on the
    /// main actor, once per test method.
    @MainActor
    open var injections: InjectionContext {
        InjectionContext()
    }

    /// Strict mode for every test method (read on the main actor, as ``injections`` is): `nil` (the default) is off; a list turns it on,
    /// allowing those types to be read live. A value read without being injected fails the
    /// test once per type.
    @MainActor
    open var strictModeAllowing: [any Injectable.Type]? {
        nil
    }

    /// Whether strict mode also holds on every thread and task no scope reached (an event
    /// loop's callback no middleware bound, a queue the code did not carry to), through a
    /// process-wide scope (`withInjectedProcessWide`): `false` (the default) keeps it to the
    /// test's scope. Read on the main actor, as ``strictModeAllowing`` is; only with strict
    /// mode on. A process-wide scope is exclusive, and such a thread belongs to no test: a
    /// read there by other work running at the same time is reported to this test too.
    @MainActor
    open var strictModeOnEveryThread: Bool {
        false
    }

    /// Runs the test method inside ``injections`` (and strict mode, if on).
    override open func invokeTest() {
        // Reports from Ambient's test tools (a TestClock that cannot settle, say) fail the
        // test; `injections` may replace the reporter with its own.
        // XCTest calls this on the main thread, where `injections` (main-actor-isolated) is
        // read; `assumeIsolated` checks it. The test case object stays on this thread.
        nonisolated(unsafe) let test = self
        let (injected, allowing, everyThread) = MainActor.assumeIsolated {
            (test.injections, test.strictModeAllowing, test.strictModeOnEveryThread)
        }
        let pendingWork = PendingWorkCheck()
        var context = InjectionContext().injecting(IssueReporter.xcTest(testName: name, checking: pendingWork))
            .injecting(contentsOf: injected)
        if let allowed = allowing {
            let reported = LiveReadLog()
            let name = self.name
            context = context.injecting(
                StrictMode(allowing: allowed) { type in
                    guard reported.firstTime(type) else { return }
                    XCTFail(
                        "\(name): " + StrictModeMessage.text(for: type, fix: "injections", allow: "strictModeAllowing"))
                })
        }
        pendingWork.watch(queueOf: context)
        let name = self.name
        // A warning on standard error: XCTest has no warnings, and a thread with no scope may be
        // running work an earlier test left behind.
        let unscoped = UnscopedReadReport.register(context, owner: "\(ObjectIdentifier(self))") { message, readAt in
            let location = readAt.map { "\($0.filePath):\($0.line):\($0.column): " } ?? ""
            FileHandle.standardError.write(Data("\(location)warning: \(name): \(message)\n".utf8))
        }
        defer { unscoped.map(UnscopedReads.unregister) }
        if everyThread, let strict = context[StrictMode.self], strict.isEnabled {
            // On the main thread, in no task: the blocking form may wait for its turn.
            withInjectedProcessWide(strict) { context.run { super.invokeTest() } }
        } else {
            context.run { super.invokeTest() }
        }
        // The background work the test left pending (queues made where its reporter is current).
        if let report = pendingWork.report() { XCTFail("\(name): \(report)") }
    }
}

extension IssueReporter {
    /// Fails the running XCTest test method with each report, naming its location.
    static func xcTest(testName: String, checking pendingWork: PendingWorkCheck) -> IssueReporter {
        IssueReporter(checkingPendingWork: pendingWork) { message, location in
            XCTFail("\(testName): \(location): \(message)")
        }
    }
}
