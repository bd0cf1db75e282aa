// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation
import Testing

// Why: strict mode as a trait: a test hears about every ambient value it forgot to fake.

extension Trait where Self == InjectionTrait {
    /// Strict mode (`StrictMode` in Ambient) for the test, or each test of the suite: any
    /// ambient value the test reads without having injected it — a live singleton it forgot
    /// to fake — is recorded as an issue against the test, once per type. `allowed` types
    /// may be read live.
    ///
    /// ```swift
    /// @Suite(.strict(allowing: [Logger.self]), .injecting(Clock.fixed(noon)))
    /// struct ReminderTests {
    ///     @Test func dueDates() {
    ///         _ = scheduler.nextDue()   // reads Defaults.current → issue: "Defaults.current was read …"
    ///     }
    /// }
    /// ```
    ///
    /// Strict mode holds in the test's scope: its task, the tasks it starts, and the work
    /// carried from there. A read on a thread no scope reached — an event loop's callback
    /// that no middleware bound, a queue or thread the code did not carry to — is outside
    /// it. With `everyThread`, the test's strict mode also holds there, through a
    /// process-wide scope (`withInjectedProcessWide`): each such read is reported to the
    /// test like any other, held until one of Ambient's waits returns in the test's task,
    /// ``recordHeldReports()``, or the end of the test.
    ///
    /// ```swift
    /// @Suite(.serialized) struct RouteTests {
    ///     @Test(.strict(allowing: [Clock.self], everyThread: true))
    ///     func theFutureRouteFakesEverything() async throws {
    ///         try await app.testing(method: .inMemory).test(.GET, "report") { _ in }
    ///         recordHeldReports()   // the route's reads on the event loop, recorded here
    ///     }
    /// }
    /// ```
    ///
    /// A process-wide scope is exclusive (tests that ask for it run one after the other),
    /// and a thread with no scope belongs to no test: a read there made by another test
    /// running beside this one is reported to this one too. Run such tests in a process where
    /// nothing else runs unscoped work at the same time: `swift test --filter RouteTests
    /// --no-parallel`.
    public static func strict(allowing allowed: [any Injectable.Type] = [], everyThread: Bool = false) -> Self {
        InjectionTrait(strictOnEveryThread: everyThread) { context, test, recorder in
            let reported = LiveReadLog()
            let location = test.sourceLocation
            return context.injecting(
                StrictMode(allowing: allowed) { type in
                    guard reported.firstTime(type) else { return }
                    let message = StrictModeMessage.text(
                        for: type, fix: ".injecting(…)", allow: ".strict(allowing: [\(type).self])")
                    recorder.record(Comment(rawValue: message), at: location)
                })
        }
    }
}

/// The failure message, shared by the Swift Testing trait and the XCTest helper.
enum StrictModeMessage {
    static func text(for type: any Injectable.Type, fix: String, allow: String) -> String {
        "Strict mode: \(type).current was read but no \(type) was injected, so the test used the live "
            + "\(type).defaultValue (a real singleton). Inject a fake with \(fix) or withInjected(…), "
            + "or allow the live value with \(allow)."
    }
}

/// Which types have been reported in one test, so each is reported once.
final class LiveReadLog: Sendable {
    private let seen = Locked<Set<ObjectIdentifier>>([])

    func firstTime(_ type: any Injectable.Type) -> Bool {
        seen.withLock { $0.insert(ObjectIdentifier(type)).inserted }
    }
}

/// A strict test's injected types, registered for the reads that find no scope (a thread the
/// test's scope did not follow): each type reported once per test, as a warning at the line
/// that read (where the platform can name it: `RunningTest.locator`). A thread with
/// no scope belongs to no test: the read may be this test's work, or work of another test
/// running beside it (or of the test framework), so it warns rather than fails.
enum UnscopedReadReport {
    /// Registers `context`'s injected types (but strict mode's own, the reporter and the types
    /// strict mode allows live) when `context` is strict; `nil` when it is not. A read for which
    /// `elsewhere` says `true` (made in another test's own task) is not this test's: it is
    /// neither reported nor counted as the type's one report.
    static func register(
        _ context: InjectionContext, owner: String, elsewhere: @escaping @Sendable () -> Bool = { false },
        report: @escaping @Sendable (_ message: String, _ readAt: RunningTest.SourcePlace?) -> Void
    ) -> UnscopedReads.Registration? {
        guard let strict = context[StrictMode.self], strict.isEnabled else { return nil }
        let types = context.injectedTypes.filter {
            $0 != StrictMode.self && $0 != IssueReporter.self && !strict.allows($0)
        }
        guard !types.isEmpty else { return nil }
        let reported = LiveReadLog()
        return UnscopedReads.register(types, owner: owner) { type, testsInjectingIt in
            guard !elsewhere(), reported.firstTime(type) else { return }
            // On the reading thread: the code that read is in its stack.
            let readAt = RunningTest.locator?.caller()
            report(text(for: type, testsInjectingIt: testsInjectingIt, readAt: readAt), readAt)
        }
    }

    static func text(for type: any Injectable.Type, testsInjectingIt: Int, readAt: RunningTest.SourcePlace?) -> String {
        let whose =
            testsInjectingIt == 1
            ? "this test had injected \(type)"
            : "this test and \(testsInjectingIt - 1) other(s) running beside it had injected \(type)"
        let place = readAt.map { " (at \($0.fileID):\($0.line), in \($0.function))" } ?? ""
        return "Strict mode: \(type).current was read\(place) on a thread with no scope while \(whose), so that read "
            + "used the live \(type).defaultValue. If it was the test's work, that work reached a thread its scope "
            + "did not follow (a callback from a thread the code does not own, a system API handed a system "
            + "queue): carry the scope where the work is handed over (InjectionContext.current.bind { … }), or "
            + "submit it through a carrying queue."
    }
}
