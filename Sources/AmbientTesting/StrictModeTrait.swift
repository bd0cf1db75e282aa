import Ambient
import Foundation
import Testing

/// A Swift Testing trait that turns on ``Ambient/StrictMode`` for a test or a suite: any
/// ambient value the test reads without having injected it — a live singleton it forgot to
/// fake — is recorded as an issue against the test, once per type. Create it with
/// ``Testing/Trait/strict(allowing:)``.
///
/// ```swift
/// @Suite(.strict(allowing: [Logger.self]), .injecting(Clock.fixed(noon)))
/// struct ReminderTests {
///     @Test func dueDates() {
///         _ = scheduler.nextDue()   // reads Defaults.current → issue: "Defaults was read …"
///     }
/// }
/// ```
public struct StrictModeTrait: TestTrait, SuiteTrait, TestScoping {
    let allowed: [any AmbientValue.Type]

    /// Applies to every test in a suite it is attached to.
    public var isRecursive: Bool {
        true
    }

    /// Scopes each test case.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> StrictModeTrait? {
        testCase == nil ? nil : self
    }

    /// Runs the test in strict mode, recording one issue per type read without injection.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        let reported = LiveReadLog()
        let location = test.sourceLocation
        let strict = StrictMode(allowing: allowed) { type in
            guard reported.firstTime(type) else { return }
            Issue.record(Comment(rawValue: StrictModeMessage.text(for: type, fix: ".injecting(…)", allow: ".strict(allowing: [\(type).self])")), sourceLocation: location)
        }
        try await InjectionContext.current.injecting(strict).run { try await function() }
    }
}

extension Trait where Self == StrictModeTrait {
    /// Strict mode for the test (or each test of the suite): reading an ambient value that
    /// was not injected records an issue. `allowed` types may be read live.
    public static func strict(allowing allowed: [any AmbientValue.Type] = []) -> Self {
        StrictModeTrait(allowed: allowed)
    }
}

/// The failure message, shared by the Swift Testing trait and the XCTest helper.
enum StrictModeMessage {
    static func text(for type: any AmbientValue.Type, fix: String, allow: String) -> String {
        "Strict mode: \(type).current was read but no \(type) was injected, so the test used the live "
            + "\(type).defaultValue (a real singleton). Inject a fake with \(fix) or withInjected(…), "
            + "or allow the live value with \(allow)."
    }
}

/// Which types have been reported in one test, so each is reported once.
final class LiveReadLog: @unchecked Sendable {
    // @unchecked: `seen` is only touched with `lock` held.
    private let lock = NSLock()
    private var seen: Set<ObjectIdentifier> = []

    func firstTime(_ type: any AmbientValue.Type) -> Bool {
        lock.withLock { seen.insert(ObjectIdentifier(type)).inserted }
    }
}
