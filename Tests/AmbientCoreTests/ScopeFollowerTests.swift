// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Dispatch
import Foundation
import Testing

/// An older logging library's per-thread request id: state Ambient does not own.
enum LegacyRequestLog {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0)
        return key
    }()

    /// The calling thread's request id (a retained `NSString`, released when replaced).
    static var requestID: String? {
        get { pthread_getspecific(key).map { Unmanaged<NSString>.fromOpaque($0).takeUnretainedValue() as String } }
        set {
            if let old = pthread_getspecific(key) { Unmanaged<NSString>.fromOpaque(old).release() }
            pthread_setspecific(key, newValue.map { Unmanaged.passRetained($0 as NSString).toOpaque() })
        }
    }
}

/// The ambient value the legacy state follows.
struct RequestID: AmbientValue, Equatable {
    let value: String
    static var defaultValue: RequestID { RequestID(value: "") }
}

/// Followers are process-wide: these tests run one at a time, and each follower only acts on
/// contexts that inject a `RequestID`, so the parallel tests' scopes pass through unchanged.
@Suite("Scope followers carry state kept outside Ambient", .serialized)
struct ScopeFollowerTests {
    static let follower = ScopeFollower(
        install: { context -> String?? in
            guard let id = context[RequestID.self] else { return .none }
            let saved = LegacyRequestLog.requestID
            LegacyRequestLog.requestID = id.value
            return .some(saved)
        },
        restore: { saved in
            if case .some(let saved) = saved { LegacyRequestLog.requestID = saved }
        })

    @Test func runAndScopesInstallTheStateAndPutBackWhatWasThere() {
        let registration = Self.follower.register()
        defer { registration.cancel() }
        LegacyRequestLog.requestID = "outer"
        let context = InjectionContext().injecting(RequestID(value: "r1"))
        #expect(context.run { LegacyRequestLog.requestID } == "r1")
        #expect(LegacyRequestLog.requestID == "outer")
        let nested = withInjected(RequestID(value: "r2")) {
            (LegacyRequestLog.requestID, context.run { LegacyRequestLog.requestID }, LegacyRequestLog.requestID)
        }
        #expect(nested == ("r2", "r1", "r2"))
        #expect(LegacyRequestLog.requestID == "outer")
        LegacyRequestLog.requestID = nil
    }

    @Test func aThrowingBodyStillRestores() {
        struct Failed: Error {}
        let registration = Self.follower.register()
        defer { registration.cancel() }
        #expect(throws: Failed.self) {
            try withInjected(RequestID(value: "r")) { () throws(Failed) in throw Failed() }
        }
        #expect(LegacyRequestLog.requestID == nil)
    }

    @Test func theStateFollowsWorkToOtherThreads() {
        let registration = Self.follower.register()
        defer { registration.cancel() }
        let seen = Locked<[String?]>([])
        let done = DispatchGroup()
        withInjected(RequestID(value: "carried")) {
            let bound = InjectionContext.current.bind { seen.withLock { $0.append(LegacyRequestLog.requestID) } }
            done.enter()
            DispatchQueue.global().async {
                bound()
                done.leave()
            }
            done.enter()
            Thread {
                bound()
                done.leave()
            }.start()
        }
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(seen.withLock { $0 } == ["carried", "carried"])
    }

    @Test func followersInstallInOrderAndRestoreInReverse() {
        let order = Locked<[String]>([])
        func recording(_ name: String) -> ScopeFollower {
            ScopeFollower(
                install: { context -> Bool in
                    guard context[RequestID.self]?.value == "ordered" else { return false }
                    order.withLock { $0.append("install \(name)") }
                    return true
                },
                restore: { installed in if installed { order.withLock { $0.append("restore \(name)") } } })
        }
        let first = recording("a").register()
        let second = recording("b").register()
        withInjected(RequestID(value: "ordered")) { order.withLock { $0.append("body") } }
        second.cancel()
        first.cancel()
        first.cancel()  // twice is harmless
        withInjected(RequestID(value: "ordered")) {}  // cancelled: nothing more
        #expect(order.withLock { $0 } == ["install a", "install b", "body", "restore b", "restore a"])
    }
}
