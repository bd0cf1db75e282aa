// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation
import Testing

/// The migration trap: `Defaults.current` stored in a property pins the first test's fake.
@Suite("Defaults: a fake kept from an earlier scope is reported under strict mode")
struct PinnedFakeTests {
    /// Legacy code with the trap: the store is captured once, when the object is made.
    final class SettingsCache: @unchecked Sendable {
        private let defaults = Defaults.current  // the trap
        func remember(_ value: Int) { defaults.set(value, forKey: "cached") }
    }

    /// A strict mode and an issue reporter that collect what they are told.
    func recording() -> (StrictMode, IssueReporter, Locked<[String]>) {
        let reports = Locked<[String]>([])
        let strict = StrictMode(allowing: [IssueReporter.self]) { _ in }
        let reporter = IssueReporter { message, _ in reports.withLock { $0.append(message) } }
        return (strict, reporter, reports)
    }

    @Test func theFirstTestsFakeUsedInTheSecondTestsScopeIsReported() {
        let (strict, reporter, reports) = recording()
        let testA = Defaults.inMemory()
        let cache = withInjected(strict, testA) { SettingsCache() }  // made during "test A"
        let testB = Defaults.inMemory()
        withInjected(strict, testB, reporter) {
            cache.remember(2)  // "test B": writes into A's store
        }
        #expect(testA.snapshot == ["cached": 2], "the write itself still happens")
        #expect(testB.snapshot.isEmpty)
        #expect(reports.get().count == 1)
        #expect(reports.get().first?.contains("wrote \"cached\" to") == true)
        #expect(reports.get().first?.contains("let defaults = Defaults.current") == true)
    }

    @Test func legitimateUsesOfAFakeAreNotReported() {
        let (strict, reporter, reports) = recording()
        let fake = Defaults.inMemory()
        fake.set(1, forKey: "setup")  // set up before the scope: nothing else is current
        withInjected(strict, fake, reporter) {
            Defaults.current.set(2, forKey: "inside")  // the injected fake itself
            fake.set(3, forKey: "direct")  // the same store, held by the test
        }
        withInjected(reporter) {
            #expect(fake.integer(forKey: "inside") == 2)  // assertions after the scope
        }
        let other = Defaults.inMemory()
        withInjected(fake, other, reporter) { fake.set(4, forKey: "no strict mode") }  // strict mode off
        #expect(reports.get().isEmpty)
    }
}
