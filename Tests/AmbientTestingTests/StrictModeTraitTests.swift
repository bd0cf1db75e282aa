// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientTesting
import Foundation
import Testing

/// Read only by these tests, so strict-mode reports are predictable.
struct Hidden: AmbientValue, Equatable {
    var name: String
    static var defaultValue: Hidden { Hidden(name: "live") }
}

/// Has a test value: strict mode returns it instead of the live default.
struct Faked: AmbientValue, Equatable {
    var name: String
    static var defaultValue: Faked { Faked(name: "live") }
    static var testValue: Faked? { Faked(name: "test") }
}

@Suite(.strict(allowing: [Logger.self]))
struct StrictModeTraitTests {
    @Test func readingAValueThatWasNotInjectedRecordsAnIssueNamingIt() {
        withKnownIssue {
            _ = Hidden.current
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("Hidden.current was read but no Hidden was injected") }
        }
    }

    @Test func theTypesTestValueIsReturnedInsteadOfTheLiveOne() {
        withKnownIssue {
            #expect(Faked.current == Faked(name: "test"))
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("Faked") }
        }
    }

    @Test func eachTypeIsReportedOncePerTest() {
        // Two reads, one issue: `withKnownIssue` would still pass with two, so count them.
        let issues = Counter()
        withKnownIssue {
            _ = Hidden.current
            _ = Hidden.current
        } matching: { issue in
            issues.increment()
            return true
        }
        #expect(issues.value == 1)
    }

    @Test(.injecting(Hidden(name: "fake"))) func injectedValuesAreFine() {
        #expect(Hidden.current == Hidden(name: "fake"))
    }

    @Test func allowedTypesMayBeReadLive() {
        _ = Logger.current
    }

    @Test func valuesInjectedInTheBodyAreFine() {
        withInjected(Hidden(name: "body")) { #expect(Hidden.current.name == "body") }
    }
}

/// Where Swift Testing cannot tell which test runs — a queue's block, a thread — the trait's
/// report is held and recorded against the test once its body returns. Each test here runs
/// the trait's scope itself inside `withKnownIssue`, so the held report lands inside it: a
/// report recorded where it was made, outside the test's task, would be «unknown»'s issue
/// and fail the run, and this test would fail with "known issue was not recorded".
@Suite struct StrictModeReportsFromOtherThreadsTests {
    @Test func aReadOnAQueueIsRecordedAgainstTheTestWhenItsBodyReturns() async throws {
        let test = try #require(Test.current)
        try await withKnownIssue {
            try await InjectionTrait.strict().provideScope(for: test, testCase: Test.Case.current) {
                let context = InjectionContext.current
                await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                    DispatchQueue.global().async {
                        context.run { _ = Hidden.current }
                        done.resume()
                    }
                }
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("Hidden.current was read but no Hidden was injected") }
        }
    }

    @Test func aReadOnAThreadIsRecordedAgainstTheTestWhenItsBodyReturns() async throws {
        let test = try #require(Test.current)
        try await withKnownIssue {
            try await InjectionTrait.strict().provideScope(for: test, testCase: Test.Case.current) {
                let read = InjectionContext.current.bind { _ = Hidden.current }
                let finished = Counter()
                Thread {
                    read()
                    finished.increment()
                }.start()
                while finished.value == 0 { try await Task.sleep(for: .milliseconds(1)) }
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("Hidden.current was read") }
        }
    }

    @Test func aReadInTheTestsOwnTaskIsRecordedAtOnce() async throws {
        let test = try #require(Test.current)
        try await InjectionTrait.strict().provideScope(for: test, testCase: Test.Case.current) {
            // Inside the body: recorded now, so this `withKnownIssue` sees it.
            await withKnownIssue {
                await Task { _ = Hidden.current }.value
            } matching: { issue in
                issue.comments.contains { $0.rawValue.contains("Hidden.current was read") }
            }
        }
    }
}

/// Injected by the unscoped-read tests alone (a parallel test reading it with no scope would
/// be reported to them).
struct Unfollowed: AmbientValue, Equatable {
    var name: String
    static var defaultValue: Unfollowed { Unfollowed(name: "live") }
}

/// A read on a thread the test's scope did not reach, of a type the strict test injected, is
/// reported to that test as a warning (once per type), naming the type and what to do; a
/// carried read is not. Serialized: two of these tests at once would each hear of the other's
/// read, as the warning says.
@Suite(.serialized) struct StrictModeUnscopedReadTests {

    /// Runs `body` as a strict test that injected `Unfollowed`, on another thread with no scope.
    private func readOnAThreadOfItsOwn(carried: Bool, _ read: @escaping @Sendable () -> Void) async throws {
        let test = try #require(Test.current)
        try await InjectionTrait.strict().provideScope(for: test, testCase: Test.Case.current) {
            try await InjectionTrait.injecting(Unfollowed(name: "fake")).provideScope(
                for: test, testCase: Test.Case.current
            ) {
                let work = carried ? InjectionContext.current.bind(read) : read
                let finished = Counter()
                Thread {
                    work()
                    work()
                    finished.increment()
                }.start()
                while finished.value == 0 { try await Task.sleep(for: .milliseconds(1)) }
            }
        }
    }

    @Test func aReadWithNoScopeOfAnInjectedTypeIsReportedOnceAtTheLineThatRead() async throws {
        let issues = Counter()
        let readLine = #line + 2
        try await withKnownIssue {
            try await readOnAThreadOfItsOwn(carried: false) { _ = Unfollowed.current }
        } matching: { issue in
            issues.increment()
            let readAt = "AmbientTestingTests/StrictModeTraitTests.swift:\(readLine)"
            return issue.comments.contains {
                $0.rawValue.contains("Unfollowed.current was read (at \(readAt), in ")
                    && $0.rawValue.contains("on a thread with no scope while this test")
            } && issue.severity == .warning && issue.sourceLocation?.line == readLine
                && issue.sourceLocation?.fileName == "StrictModeTraitTests.swift"
        }
        #expect(issues.value == 1)
    }

    @Test func aCarriedReadIsNotReported() async throws {
        try await readOnAThreadOfItsOwn(carried: true) { #expect(Unfollowed.current.name == "fake") }
    }
}

final class Counter: @unchecked Sendable {
    // @unchecked: `count` is only touched with `lock` held.
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
