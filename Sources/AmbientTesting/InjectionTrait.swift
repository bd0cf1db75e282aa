import Ambient
import Testing

/// A Swift Testing trait that injects ambient values around a test — or around every test
/// of a suite — for exactly the test's body. Create it with ``Testing/Trait/injecting(_:)``
/// or, for strict mode, ``Testing/Trait/strict(allowing:)``.
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
/// steps) are recorded as issues of the test, at the line that called the tool.
///
/// A Swift Testing test, synchronous or not, runs inside a task: there, use the `async`
/// form of `withInjectedProcessWide` (`await withInjectedProcessWide(value) { () async in … }`);
/// the blocking form stops the process rather than risk deadlocking the concurrency pool.
///
/// Suite and test traits compose: the suite's values are injected first, the test's on top,
/// so the test's values win for the types both inject. Parallel tests stay isolated: each
/// runs in its own task with its own values.
public struct InjectionTrait: TestTrait, SuiteTrait, TestScoping {
    /// Builds the test's context on top of the current one; called once per test case.
    let inject: @Sendable (InjectionContext, Test) -> InjectionContext

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
        // The test's reporter goes in first, so a reporter the test injects itself wins.
        let context = InjectionContext.current.injecting(IssueReporter.swiftTesting)
        try await inject(context, test).run { try await function() }
    }
}

extension Trait where Self == InjectionTrait {
    /// Injects `values` around the test (or each test of the suite).
    ///
    /// ```swift
    /// @Test(.injecting(Clock.fixed(noon), Defaults.inMemory(["k": "v"])))
    /// func readsTheFakes() { … }
    /// ```
    ///
    /// A trait is built once, where it is declared, so these exact values are shared by
    /// every test of a suite and every case of a parameterised test. That is right for
    /// plain values (`Clock.fixed`); for fakes that record or store (`Defaults.inMemory`,
    /// `Logger.capturing`, a `TestClock`) give each test its own with
    /// ``injecting(fresh:)``.
    public static func injecting<each V: AmbientValue>(_ values: repeat each V) -> Self {
        InjectionTrait { context, _ in context.injecting(repeat each values) }
    }

    /// Injects the values `make` returns, calling it anew for every test (and every case
    /// of a parameterised test), so each gets fresh fakes.
    ///
    /// ```swift
    /// @Suite(.injecting(fresh: { (Defaults.inMemory(), Logger.capturing()) }))
    /// struct ReminderTests { … }   // no test sees another's stored ids or log entries
    /// ```
    public static func injecting<each V: AmbientValue>(
        fresh make: @escaping @Sendable () -> (repeat each V)
    ) -> Self {
        InjectionTrait { context, _ in
            let values = make()
            return context.injecting(repeat each values)
        }
    }
}

extension IssueReporter {
    /// Records each report as an issue of the running Swift Testing test, at the
    /// reported location.
    static let swiftTesting = IssueReporter { message, location in
        Issue.record(
            Comment(rawValue: message),
            sourceLocation: SourceLocation(
                fileID: location.fileID,
                filePath: location.filePath,
                line: location.line,
                column: location.column
            )
        )
    }
}
