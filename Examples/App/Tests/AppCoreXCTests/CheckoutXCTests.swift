// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientTesting
import Foundation
import LegacyKit
import XCTest

@testable import AppCore

/// XCTest in a main-actor-by-default target: the class is `nonisolated` (XCTestCase is not
/// main-actor-isolated, and a subclass may not differ), and so are its test methods, which
/// enter the main actor with `MainActor.assumeIsolated` (XCTest calls them on the main
/// thread; swift-corelibs-xctest crashes calling a `@MainActor` test method, so this is the
/// spelling that runs everywhere). An `injections` that builds main-actor values is
/// `@MainActor` (it is read on the main actor).
nonisolated final class CheckoutXCTests: InjectingTestCase {
    @MainActor override var injections: InjectionContext {
        InjectionContext().injecting(AnalyticsClient(), FeatureFlags(expressCheckout: true), Defaults.inMemory())
    }

    override var strictModeAllowing: [any Injectable.Type]? {
        [Logger.self, Clock.self]  // the live logger stamps entries with the live clock
    }

    func testLoadTracksIntoTheInjectedClient() {
        MainActor.assumeIsolated {
            let model = CheckoutViewModel()
            withInjected(ImageCache()) { model.load() }
            XCTAssertEqual(model.title, "Pay now")
            XCTAssertEqual(AnalyticsClient.current.events, ["checkout.load"])
        }
    }

    func testEachMethodGetsAFreshClient() {
        MainActor.assumeIsolated {
            XCTAssertTrue(AnalyticsClient.current.events.isEmpty)
            AnalyticsClient.current.track("written")
        }
    }

    func testAndAgain() {
        MainActor.assumeIsolated {
            XCTAssertTrue(AnalyticsClient.current.events.isEmpty)
            AnalyticsClient.current.track("written")
        }
    }
}
