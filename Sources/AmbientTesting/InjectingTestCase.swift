import Ambient
import XCTest

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
/// `injections` is read afresh for every test method, so each gets new fakes.
open class InjectingTestCase: XCTestCase {
    /// The values to inject around each test method. Empty unless overridden.
    open var injections: InjectionContext {
        InjectionContext()
    }

    /// Strict mode for every test method: `nil` (the default) is off; a list turns it on,
    /// allowing those types to be read live. A value read without being injected fails the
    /// test once per type.
    open var strictModeAllowing: [any Injectable.Type]? {
        nil
    }

    /// Runs the test method inside ``injections`` (and strict mode, if on).
    override open func invokeTest() {
        // Reports from Ambient's test tools (a TestClock that cannot settle, say) fail the
        // test; `injections` may replace the reporter with its own.
        var context = InjectionContext().injecting(IssueReporter.xcTest(testName: name)).injecting(
            contentsOf: injections)
        if let allowed = strictModeAllowing {
            let reported = LiveReadLog()
            let name = self.name
            context = context.injecting(
                StrictMode(allowing: allowed) { type in
                    guard reported.firstTime(type) else { return }
                    XCTFail(
                        "\(name): " + StrictModeMessage.text(for: type, fix: "injections", allow: "strictModeAllowing"))
                })
        }
        context.run { super.invokeTest() }
    }
}

extension IssueReporter {
    /// Fails the running XCTest test method with each report, naming its location.
    static func xcTest(testName: String) -> IssueReporter {
        IssueReporter { message, location in
            XCTFail("\(testName): \(location): \(message)")
        }
    }
}
