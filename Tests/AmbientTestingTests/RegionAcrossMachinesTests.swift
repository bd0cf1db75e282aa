// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

/// The flaky test every date formatter has: it passes on a UTC build machine and fails on a
/// laptop in Auckland. `RegionProbe` formats one date with an injected `Region` and with the
/// live one, started here under two machines' settings.
///
/// What is pinned on Linux: swift-corelibs-foundation reads the time zone from `TZ`; its
/// `Locale.current` does not follow `LANG` unless the system has that locale installed (this
/// machine has only C and POSIX), so the live lines differ by time zone alone here. On
/// Darwin the language would differ as well; the injected lines are equal either way.
@Suite("Region across machines' settings")
struct RegionAcrossMachinesTests {
    static let utc = ["TZ": "UTC", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]
    static let auckland = ["TZ": "Pacific/Auckland", "LANG": "de_DE.UTF-8", "LC_ALL": "de_DE.UTF-8"]

    func lines(_ environment: [String: String]) throws -> [String: String] {
        let run = try ChildProgram.run("RegionProbe", environment: environment)
        #expect(run.status == 0, "\(run.errors)")
        var lines: [String: String] = [:]
        for line in run.output.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            // ICU puts a narrow no-break space before AM/PM; compare it as a space.
            lines[String(parts[0])] = String(parts[1].dropFirst()).replacingOccurrences(of: "\u{202F}", with: " ")
        }
        return lines
    }

    @Test func anInjectedRegionFormatsTheSameUnderEverySetting() throws {
        let utc = try lines(Self.utc)
        let auckland = try lines(Self.auckland)
        #expect(utc["injected"] == "Nov 14, 2023 at 5:13 PM | Tuesday, November 14, 2023 at 5:13 PM | 17")
        #expect(auckland["injected"] == utc["injected"])
    }

    @Test func theLiveRegionFollowsTheProcess() throws {
        let utc = try lines(Self.utc)
        let auckland = try lines(Self.auckland)
        // `TZ=UTC` reads back as GMT on Linux, as UTC or GMT elsewhere.
        #expect(["UTC", "GMT", "Etc/UTC"].contains { utc["process"]?.hasPrefix($0) == true }, "\(utc)")
        #expect(auckland["process"]?.hasPrefix("Pacific/Auckland") == true)
        // 22:13 UTC is 11:13 the next morning in Auckland (NZDT, UTC+13).
        #expect(utc["live"]?.hasSuffix("| 22") == true, "\(utc["live"] ?? "")")
        #expect(auckland["live"]?.hasSuffix("| 11") == true, "\(auckland["live"] ?? "")")
        #expect(utc["live"] != auckland["live"])
    }
}
