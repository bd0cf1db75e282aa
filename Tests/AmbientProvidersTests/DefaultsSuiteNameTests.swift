// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation
import Testing

/// `Defaults.suite` refuses, on every platform, the names Darwin's `UserDefaults` refuses and
/// the names that would not stay inside a suite file of their own.
@Suite("Defaults: suite names")
struct DefaultsSuiteNameTests {
    static let refused: [(name: String, reason: String)] = [
        ("", "empty"),
        (" ", "only white space"),
        ("\t\n", "only white space"),
        ("NSGlobalDomain", "domain of UserDefaults itself"),
        ("NSArgumentDomain", "domain of UserDefaults itself"),
        ("NSRegistrationDomain", "domain of UserDefaults itself"),
        ("../../tmp/x", "path-like"),
        ("a/b", "path-like"),
        ("a\\b", "path-like"),
        (".hidden", "path-like"),
        ("nul\0byte", "path-like"),
        (String(repeating: "x", count: 300), "300 bytes long"),
        (String(repeating: "é", count: 125), "250 bytes long"),
    ]

    @Test(arguments: refused.indices)
    func aRefusedNameGivesNilAndATypedError(index: Int) {
        let (name, reason) = Self.refused[index]
        #expect(Defaults.suite(name) == nil)
        do {
            _ = try Defaults.suite(validating: name)
            Issue.record("\(name.debugDescription) was accepted")
        } catch {
            #expect(error.name == name)
            #expect(error.description.contains(reason), "\(error)")
        }
    }

    @Test func theAppsOwnBundleIdentifierIsRefusedWhereThereIsOne() {
        guard let bundle = Bundle.main.bundleIdentifier else { return }
        #expect(Defaults.suite(bundle) == nil)
    }

    @Test func ordinaryNamesOpenASuite() throws {
        for name in ["group.com.example.app", "ambient.tests", String(repeating: "y", count: 249)] {
            let suite = try Defaults.suite(validating: name)
            #expect(suite.description == "Defaults.suite(\"\(name)\")")
            #expect(Defaults.suite(name) != nil)
        }
    }
}
