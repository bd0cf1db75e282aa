// SPDX-License-Identifier: Apache-2.0

import Ambient
import Testing

// Why: tests inject their fakes as traits, fresh for every test, parallel-safe.

/// A Swift Testing trait that injects ambient values around a test — or around every test
/// of a suite — for exactly the test's body. Create it with ``Testing/Trait/injecting(_:)-(()->A)``
/// or, for strict mode, ``Testing/Trait/strict(allowing:everyThread:)``.
///
/// ```swift
/// @Suite(.injecting(Defaults.inMemory(["defaultColour": "Red"])))
/// struct WidgetTests {
///     @Test(.injecting(Clock.fixed(noon)))
///     func widgetIsRedAtNoon() {
///         #expect(makeWidget() == "RedWidget")
///     }
/// }
/// ```
///
/// Under either trait, failures that Ambient's test tools report through `IssueReporter`
/// (a `TestClock` whose woken work never settles, or whose `run()` runs out of
/// steps) are recorded as issues of the test, at the line that called the tool — wherever
/// they are made: in the test's task tree at once, from a queue, a thread or an event loop
/// when the test's body returns (Swift Testing knows the running test only in its tasks).
///
/// A Swift Testing test, synchronous or not, runs inside a task: there, use the `async`
/// form of `withInjectedProcessWide` (`await withInjectedProcessWide(value) { () async in … }`);
/// the blocking form stops the process rather than risk deadlocking the concurrency pool.
///
/// Suite and test traits compose: the suite's values are injected first, the test's on top,
/// so the test's values win for the types both inject. Parallel tests stay isolated: each
/// runs in its own task with its own values, and `.injecting(…)`
/// evaluates its arguments anew for every test, so fakes that store or record are never
/// shared between tests.
public struct InjectionTrait: TestTrait, SuiteTrait, TestScoping {
    /// Builds the test's context on top of the current one, with the recorder of the test
    /// case's reports; called once per test case.
    let inject: @Sendable (InjectionContext, Test, TestIssueRecorder) async throws -> InjectionContext
    /// Whether the test's strict mode also holds on every thread and task no scope reached,
    /// through a process-wide scope (``Testing/Trait/strict(allowing:everyThread:)``).
    let strictOnEveryThread: Bool

    init(
        strictOnEveryThread: Bool = false,
        inject: @escaping @Sendable (InjectionContext, Test, TestIssueRecorder) async throws -> InjectionContext
    ) {
        self.inject = inject
        self.strictOnEveryThread = strictOnEveryThread
    }

    /// Applies to every test in a suite it is attached to.
    public var isRecursive: Bool {
        true
    }

    /// Scopes each test case, never a whole suite at once (tests of a suite may run in
    /// parallel, each in its own task).
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> InjectionTrait? {
        testCase == nil ? nil : self
    }

    /// Runs the test with the values injected on top of whatever is current.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        let recorder = TestIssueRecorder(for: test)
        let pendingWork = PendingWorkCheck(deliveringHeldReports: recorder.deliverHeld)
        // Reports made outside the test's tasks are recorded once its body returns, thrown or
        // not; so is the background work the test left pending.
        defer {
            if let report = pendingWork.report() {
                Issue.record(Comment(rawValue: report), sourceLocation: test.sourceLocation)
            }
            recorder.recordHeld()
        }
        // The test's reporter goes in first, so a reporter the test injects itself wins.
        let context = InjectionContext.current.injecting(IssueReporter.swiftTesting(recorder, checking: pendingWork))
        let injected = try await inject(context, test, recorder)
        pendingWork.watch(queueOf: injected)
        // A read in another test's own task (Swift Testing names the test there) is that
        // test's, whatever it injected: not this one's to hear of.
        let testID = test.id
        let isAnotherTests: @Sendable () -> Bool = { Test.current.map { $0.id != testID } ?? false }
        let unscoped = UnscopedReadReport.register(injected, owner: "\(test.id)", elsewhere: isAnotherTests) {
            message, readAt in
            let location =
                readAt.map {
                    SourceLocation(
                        fileID: $0.fileID, filePath: $0.filePath, line: max($0.line, 1), column: max($0.column, 1))
                } ?? test.sourceLocation
            recorder.record(Comment(rawValue: message), at: location, severity: .warning)
        }
        defer { unscoped.map(UnscopedReads.unregister) }
        guard strictOnEveryThread, let strict = injected[StrictMode.self], strict.isEnabled else {
            return try await injected.run { try await function() }
        }
        // The test's strict mode, process-wide: what no scope reached reads it too.
        try await withInjectedProcessWide(strict) { () async throws in
            try await injected.run { try await function() }
        }
    }
}

extension Trait where Self == InjectionTrait {
    /// Injects `value` around the test (or each test of the suite), evaluating the argument
    /// anew for every test and every case of a parameterised test, as swift-dependencies'
    /// `.dependency` trait does: `Defaults.inMemory()`, `Logger.capturing()` or a
    /// `TestClock()` written here gives each test its own, so no test sees what another
    /// stored, logged or scheduled.
    ///
    /// ```swift
    /// @Suite(.injecting(Defaults.inMemory()))     // a new store for each test
    /// struct ReminderTests {
    ///     @Test(.injecting(Clock.fixed(noon)))
    ///     func dueAtNoon() { … }
    /// }
    /// ```
    ///
    /// One to six values; for more, or for values built from one another, use
    /// ``injecting(fresh:)``.
    public static func injecting<A: Injectable>(_ value: @autoclosure @escaping @Sendable () -> A) -> Self {
        InjectionTrait { context, _, _ in context.injecting(value()) }
    }

    /// Injects `a` and `b`, each evaluated anew for every test (see the one-value form);
    /// where they share a type, `b` wins.
    ///
    /// ```swift
    /// @Test(.injecting(Clock.fixed(noon), Defaults.inMemory(["k": "v"])))
    /// func readsTheFakes() { … }
    /// ```
    public static func injecting<A: Injectable, B: Injectable>(
        _ a: @autoclosure @escaping @Sendable () -> A,
        _ b: @autoclosure @escaping @Sendable () -> B
    ) -> Self {
        InjectionTrait { context, _, _ in context.injecting(a(), b()) }
    }

    /// Injects three values, each evaluated anew for every test; later arguments win a shared type.
    public static func injecting<A: Injectable, B: Injectable, C: Injectable>(
        _ a: @autoclosure @escaping @Sendable () -> A,
        _ b: @autoclosure @escaping @Sendable () -> B,
        _ c: @autoclosure @escaping @Sendable () -> C
    ) -> Self {
        InjectionTrait { context, _, _ in context.injecting(a(), b(), c()) }
    }

    /// Injects four values, each evaluated anew for every test; later arguments win a shared type.
    public static func injecting<A: Injectable, B: Injectable, C: Injectable, D: Injectable>(
        _ a: @autoclosure @escaping @Sendable () -> A,
        _ b: @autoclosure @escaping @Sendable () -> B,
        _ c: @autoclosure @escaping @Sendable () -> C,
        _ d: @autoclosure @escaping @Sendable () -> D
    ) -> Self {
        InjectionTrait { context, _, _ in context.injecting(a(), b(), c(), d()) }
    }

    /// Injects five values, each evaluated anew for every test; later arguments win a shared type.
    public static func injecting<A: Injectable, B: Injectable, C: Injectable, D: Injectable, E: Injectable>(
        _ a: @autoclosure @escaping @Sendable () -> A,
        _ b: @autoclosure @escaping @Sendable () -> B,
        _ c: @autoclosure @escaping @Sendable () -> C,
        _ d: @autoclosure @escaping @Sendable () -> D,
        _ e: @autoclosure @escaping @Sendable () -> E
    ) -> Self {
        InjectionTrait { context, _, _ in context.injecting(a(), b(), c(), d(), e()) }
    }

    /// Injects six values, each evaluated anew for every test; later arguments win a shared type.
    public static func injecting<
        A: Injectable, B: Injectable, C: Injectable, D: Injectable, E: Injectable, F: Injectable
    >(
        _ a: @autoclosure @escaping @Sendable () -> A,
        _ b: @autoclosure @escaping @Sendable () -> B,
        _ c: @autoclosure @escaping @Sendable () -> C,
        _ d: @autoclosure @escaping @Sendable () -> D,
        _ e: @autoclosure @escaping @Sendable () -> E,
        _ f: @autoclosure @escaping @Sendable () -> F
    ) -> Self {
        InjectionTrait { context, _, _ in context.injecting(a(), b(), c(), d(), e(), f()) }
    }

    /// Injects a main-actor-isolated `value` (a `MainActorAmbientValue`) around the test,
    /// or each test of the suite, building it anew on the main actor for every test and
    /// every case, so a stateful singleton's fake starts empty each time:
    ///
    /// ```swift
    /// @Test(.injecting(AnalyticsClient()))
    /// func payIsTracked() {
    ///     CheckoutViewModel().pay()
    ///     #expect(AnalyticsClient.current.events == ["pay"])
    /// }
    /// ```
    ///
    /// To inject it beside other values, give each its own trait:
    /// `@Test(.injecting(Clock.fixed(noon)), .injecting(AnalyticsClient()))`.
    public static func injecting<A: MainActorAmbientValue>(
        _ value: @autoclosure @escaping @MainActor @Sendable () -> A
    ) -> Self {
        InjectionTrait { context, _, _ in context.injecting(await value()) }
    }

    /// Injects the main-actor-isolated values `make` returns, calling it on the main actor
    /// anew for every test: the ``injecting(fresh:)`` of values built on the main actor,
    /// `MainActorAmbientValue`s among them.
    ///
    /// ```swift
    /// @Suite(.injecting(mainActorFresh: { (AnalyticsClient(), Session(user: "ada")) }))
    /// struct CheckoutTests { … }
    /// ```
    public static func injecting<each V: Injectable>(
        mainActorFresh make: @escaping @MainActor @Sendable () -> (repeat each V)
    ) -> Self {
        InjectionTrait { context, _, _ in
            await MainActor.run {
                let values = make()
                return context.injecting(repeat each values)
            }
        }
    }

    /// Injects the values `make` returns, calling it anew for every test (and every case
    /// of a parameterised test): for more than six values, or for values built from one
    /// another, which the argument forms of `injecting` cannot express.
    ///
    /// ```swift
    /// @Suite(.injecting(fresh: {
    ///     let clock = TestClock()
    ///     return (clock.clock, Defaults.inMemory(["installed": .date(clock.now)]))
    /// }))
    /// struct TrialTests { … }
    /// ```
    ///
    /// `make` may throw, for values whose making can fail; the error fails the test before
    /// its body runs:
    ///
    /// ```swift
    /// @Test(.injecting(fresh: { try FileSystem.sandbox() }))   // a directory per test
    /// func cachesThumbnails() throws { … }
    /// ```
    public static func injecting<each V: Injectable>(
        fresh make: @escaping @Sendable () throws -> (repeat each V)
    ) -> Self {
        InjectionTrait { context, _, _ in
            let values = try make()
            return context.injecting(repeat each values)
        }
    }
}

extension IssueReporter {
    /// Records each report as an issue of the running Swift Testing test, at the reported
    /// location.
    static let swiftTesting = IssueReporter { message, location in
        Issue.record(Comment(rawValue: message), sourceLocation: SourceLocation(location))
    }

    /// Records each report as an issue of the test `recorder` records for, at the reported
    /// location, wherever the report is made.
    static func swiftTesting(_ recorder: TestIssueRecorder, checking pendingWork: PendingWorkCheck) -> IssueReporter {
        IssueReporter(checkingPendingWork: pendingWork) { message, location in
            recorder.record(Comment(rawValue: message), at: SourceLocation(location))
        }
    }
}

extension SourceLocation {
    /// The Swift Testing location of a reported `location`.
    init(_ location: IssueReporter.Location) {
        self.init(fileID: location.fileID, filePath: location.filePath, line: location.line, column: location.column)
    }
}
