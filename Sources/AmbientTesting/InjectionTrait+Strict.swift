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
    public static func strict(allowing allowed: [any Injectable.Type] = []) -> Self {
        InjectionTrait { context, test, recorder in
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
