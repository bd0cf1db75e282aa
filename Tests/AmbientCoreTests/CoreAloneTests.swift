// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation
import Testing

// Why: AmbientCore is the mechanism alone, for code that makes its own types ambient. This
// target depends on AmbientCore only: `Clock` below is the standard library's protocol (it
// would not compile if AmbientCore declared a `Clock`), and the whole mechanism is usable.

/// A user's own singleton, made ambient with nothing but AmbientCore.
struct FeatureFlags: AmbientValue {
    var newCheckout: Bool
    static var defaultValue: FeatureFlags { FeatureFlags(newCheckout: false) }
}

/// `Clock` is `Swift.Clock` in a file that imports only AmbientCore.
func elapsed(on clock: some Clock<Duration>, _ body: () -> Void) -> Duration {
    clock.measure(body)
}

@Suite struct CoreAloneTests {
    @Test func aScopeInjectsAndRestores() {
        #expect(!FeatureFlags.current.newCheckout)
        withInjected(FeatureFlags(newCheckout: true)) {
            #expect(FeatureFlags.current.newCheckout)
        }
        #expect(!FeatureFlags.current.newCheckout)
    }

    @Test func aCapturedContextCarriesToAThread() async {
        let seen = await withInjected(FeatureFlags(newCheckout: true)) {
            let run = InjectionContext.current.bind { FeatureFlags.current.newCheckout }
            return await withCheckedContinuation { continuation in
                Thread { continuation.resume(returning: run()) }.start()
            }
        }
        #expect(seen)
    }

    @Test func strictModeReportsALiveRead() {
        let reported = ReportedTypes()
        withInjected(StrictMode { reported.append("\($0)") }) {
            _ = FeatureFlags.current
        }
        #expect(reported.names == ["FeatureFlags"])
    }

    @Test func theStandardLibrarysClockIsUnshadowed() {
        #expect(elapsed(on: ContinuousClock()) {} >= .zero)
    }
}

/// The types strict mode reported, from any thread.
final class ReportedTypes: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    func append(_ name: String) { lock.withLock { stored.append(name) } }
    var names: [String] { lock.withLock { stored } }
}
