// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Dispatch
import Foundation
import Testing

/// Read only here (and injected process-wide only here), so reports are predictable.
struct Unfaked: AmbientValue, Equatable {
    var name: String
    static var defaultValue: Unfaked { Unfaked(name: "live") }
}

struct WithTestValue: AmbientValue, Equatable {
    var name: String
    static var defaultValue: WithTestValue { WithTestValue(name: "live") }
    static var testValue: WithTestValue? { WithTestValue(name: "test") }
}

/// Opts out of strict mode for good.
struct AlwaysLive: AmbientValue {
    static var defaultValue: AlwaysLive { AlwaysLive() }
    static var allowsLiveReadsUnderStrictMode: Bool { true }
}

@Suite("StrictMode", .serialized)
struct StrictModeTests {
    func recording(allowing allowed: [any Injectable.Type] = []) -> (StrictMode, Locked<[String]>) {
        let reports = Locked<[String]>([])
        return (StrictMode(allowing: allowed) { type in reports.withLock { $0.append("\(type)") } }, reports)
    }

    @Test func aProcessWideStrictModeReportsReadsOnThreadsTheContextNeverReached() async {
        let (strict, reports) = recording()
        // Only the forgotten `bind` is reported; the bound block and the injected type are not.
        let legacyQueue = DispatchQueue(label: "legacy sync")
        await withInjectedProcessWide(strict) { () async in
            withInjected(WithTestValue(name: "fake")) {
                let context = InjectionContext.current
                let unbound = onQueue(legacyQueue) { (Unfaked.current.name, WithTestValue.current.name) }
                let bound = onQueue(legacyQueue) { context.run { WithTestValue.current.name } }
                #expect(unbound == ("live", "test"), "the forgotten bind reads the live and test values")
                #expect(bound == "fake")
            }
            _ = onNewThread { Unfaked.current }
        }
        // Only this suite's types: while the scope is active, unbound threads of tests running
        // alongside are reported too (why the docs say to use it in serialized suites).
        let mine = { reports.get().filter { $0 == "Unfaked" || $0 == "WithTestValue" } }
        #expect(mine() == ["Unfaked", "WithTestValue", "Unfaked"])
        // Over: the same unbound read is silent again.
        _ = onQueue(legacyQueue) { Unfaked.current }
        #expect(mine().count == 3)
    }

    @Test func aProcessWideStrictModeStaysOutOfTestsWithTheirOwnBinding() async {
        let (strict, reports) = recording()
        let other = InjectionContext().injecting(Tag("another test"))
        await withInjectedProcessWide(strict) { () async in
            _ = onNewThread { other.run { Unfaked.current } }  // another test's carried work
        }
        #expect(!reports.get().contains("Unfaked"))
    }

    @Test func aValueThatWasNotInjectedIsReportedAndItsDefaultReturned() {
        let (strict, reports) = recording()
        withInjected(strict) {
            #expect(Unfaked.current == Unfaked(name: "live"))
            #expect(Unfaked.current == Unfaked(name: "live"))
        }
        #expect(reports.get() == ["Unfaked", "Unfaked"])  // once per read; frameworks dedupe
    }

    @Test func theTestValueIsReturnedWhenTheTypeHasOne() {
        let (strict, reports) = recording()
        withInjected(strict) { #expect(WithTestValue.current.name == "test") }
        #expect(reports.get() == ["WithTestValue"])
        #expect(WithTestValue.current.name == "live")  // outside strict mode: the default
    }

    @Test func injectedAllowedAndProcessWideValuesAreNotReported() async {
        let (strict, reports) = recording(allowing: [WithTestValue.self])
        withInjected(strict, Unfaked(name: "fake")) {
            #expect(Unfaked.current.name == "fake")
            #expect(WithTestValue.current.name == "live")  // allowed: the live value
        }
        await withInjectedProcessWide(Unfaked(name: "process")) { () async in
            withInjected(strict) { #expect(Unfaked.current.name == "process") }
        }
        #expect(reports.get().isEmpty)
    }

    @Test func typesThatOptOutAreNeverReported() {
        let (strict, reports) = recording()
        withInjected(strict) { _ = AlwaysLive.current }
        #expect(reports.get().isEmpty)
    }

    @Test func offAndOutsideItsScopeNothingIsReported() {
        let (strict, reports) = recording()
        withInjected(StrictMode.off) { _ = Unfaked.current }
        withInjected(strict) {}
        _ = Unfaked.current
        #expect(reports.get().isEmpty)
        #expect(!StrictMode.off.isEnabled && strict.isEnabled)
        #expect(StrictMode.off.allows(Unfaked.self) && !strict.allows(Unfaked.self))
        #expect("\(strict)" == "StrictMode(on, allowing 0 types)")
        #expect("\(StrictMode(allowing: [Unfaked.self]) { _ in })" == "StrictMode(on, allowing 1 type)")
    }

    @Test func childTasksInheritStrictMode() async {
        let (strict, reports) = recording()
        await withInjected(strict) {
            async let read = Unfaked.current
            _ = await read
        }
        #expect(reports.get() == ["Unfaked"])
    }
}

/// Read only here: a registered type's unscoped reads are these tests' alone.
struct Unreached: AmbientValue, Equatable {
    var name: String
    static var defaultValue: Unreached { Unreached(name: "live") }
}

/// The registry behind strict tests' warnings of reads no scope reached: a read with nothing
/// bound and nothing captured goes to the last registration of each owner registered for its
/// type, with how many owners there were; a read in a scope, or after unregistering, goes
/// nowhere. In the serialized strict-mode suite: its process-wide strict mode would hear of
/// these reads too.
extension StrictModeTests {
    /// Reads `Unreached` on a thread of its own, which no scope reached.
    private func readOnAThreadOfItsOwn() {
        let done = DispatchSemaphore(value: 0)
        Thread {
            _ = Unreached.current
            done.signal()
        }.start()
        done.wait()
    }

    @Test func aReadNoScopeReachedGoesToEachOwnersLastRegistration() {
        _ = StrictMode { _ in }  // strict mode on somewhere: reads that miss take the cold path
        let reports = Locked<[String]>([])
        func registration(_ owner: String, _ name: String) -> UnscopedReads.Registration {
            UnscopedReads.register([Unreached.self], owner: owner) { type, owners in
                reports.withLock { $0.append("\(name): \(type), \(owners)") }
            }
        }
        let registrations = [registration("A", "A1"), registration("A", "A2"), registration("B", "B")]
        readOnAThreadOfItsOwn()
        #expect(reports.withLock { $0.sorted() } == ["A2: Unreached, 2", "B: Unreached, 2"])

        // A scope that injects something else reached this read: strict mode's own business.
        reports.withLock { $0 = [] }
        let context = InjectionContext().injecting(Unfaked(name: "other"))
        let done = DispatchSemaphore(value: 0)
        Thread {
            context.run { _ = Unreached.current }
            done.signal()
        }.start()
        done.wait()
        #expect(reports.withLock { $0 }.isEmpty)

        registrations.forEach(UnscopedReads.unregister)
        readOnAThreadOfItsOwn()
        #expect(reports.withLock { $0 }.isEmpty)
    }
}
