// SPDX-License-Identifier: Apache-2.0

import AmbientCore

// Why: a static or global is set once per process, by whichever code reaches it first. Set by
// a one-file port's read in a test's scope, it would keep that test's value for every later
// test, whatever they inject: the port says so, where it was set, and does not let it keep it.

/// The one-file port's reads of an injected value by a static's or global's one-time
/// initialiser in a test (a program that links AmbientTesting): each is reported to
/// ``IssueReporter/current``, naming the initialiser's line where the platform can.
@usableFromInline
enum StaticInitialiserReads {
    /// Whether the calling thread runs a one-time initialiser: if so, reports that it read
    /// `read` (of `type`, injected here) and returns `true`. Lists the thread's frames (a few
    /// microseconds): only a test program's reads of an injected value ask.
    ///
    /// `keepsLive` says what the caller does next: `true` for a value read (`Date()`,
    /// `Calendar.current`), whose caller returns the live value, as the static would get in a
    /// run with no test; `false` for a call through a handle (`FileManager.default`'s), which
    /// still goes to the injected fake rather than touch the real disk or defaults.
    static func report(_ read: StaticString, of type: any Injectable.Type, keepsLive: Bool) -> Bool {
        guard OnceInitialiser.isRunning() else { return false }
        let place = RunningTest.locator?.onceInitialiser()
        IssueReporter.current.report(
            message(read: "\(read)", type: "\(type)", initialiser: place?.function, keepsLive: keepsLive),
            at: place.map {
                IssueReporter.Location(fileID: $0.fileID, filePath: $0.filePath, line: $0.line, column: $0.column)
            } ?? unknown)
        return true
    }

    /// `clock`, or the live clock where it is injected and a one-time initialiser reads it
    /// (reported): ``SystemSingletons/clock(reading:)``'s test-program half, out of line.
    @usableFromInline
    static func checked(_ clock: Clock, _ read: StaticString) -> Clock {
        !clock.isLive && report(read, of: Clock.self, keepsLive: true) ? .live : clock
    }

    /// `region`, or the live one (as for a clock).
    @usableFromInline
    static func checked(_ region: Region, _ read: StaticString) -> Region {
        !region.isLive && report(read, of: Region.self, keepsLive: true) ? .live : region
    }

    /// `generator`, or the live one (as for a clock).
    @usableFromInline
    static func checked(_ generator: UUIDGenerator, _ read: StaticString) -> UUIDGenerator {
        !generator.isLive && report(read, of: UUIDGenerator.self, keepsLive: true) ? .live : generator
    }

    /// Where a report points when the platform cannot name the initialiser's line.
    static let unknown = IssueReporter.Location(
        fileID: "<unknown>/<a static's initialiser>", filePath: "<a static's initialiser>", line: 1, column: 1)

    static func message(read: String, type: String, initialiser: String?, keepsLive: Bool) -> String {
        let which = initialiser.map { " (\($0))" } ?? ""
        let outcome =
            keepsLive
            ? "so it got the live value instead, as it would in a run with no test."
            : "and it keeps what this test's fake gave it."
        return "\(read) was read by a static's or global's one-time initialiser\(which) while this test had "
            + "\(type) injected. A static is set once per process, by whichever code reaches it first: set "
            + "here, it would keep this test's value for every later test, \(outcome) Make it computed "
            + "(`static var x: T { … }`) to follow each test, or reach it once before any test injects "
            + "(in the suite's init) to keep the live value."
    }
}
