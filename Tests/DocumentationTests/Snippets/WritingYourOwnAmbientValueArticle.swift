// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientTesting
import Foundation
import Testing

// Behaviour tests around blocks of Sources/Ambient/Ambient.docc/WritingYourOwnAmbientValue.md (Tests/Documents/ compiles
// every block as written). Each region from `// doc: name` to `// doc-end` is one block, verbatim.
// Declarations sit inside an article-specific namespace so their names stay unique.

enum OwnValueArticle {
    /// The legacy singleton the article makes ambient.
    final class AnalyticsClient: Sendable {
        static let shared = AnalyticsClient()
        func send(_ event: String, _ properties: [String: String]) {}
    }

    struct Analytics: AmbientValue {
        var track: @Sendable (_ event: String, _ properties: [String: String]) -> Void

        static let live = Analytics { event, properties in AnalyticsClient.shared.send(event, properties) }
        static var defaultValue: Analytics { live }
    }

    @Suite("Writing Your Own Ambient Value article")
    struct Tests {
        func checkout(items: [String]) {
            Analytics.current.track("checkout", ["items": "\(items.count)"])  // was: AnalyticsClient.shared.send
        }

        // doc: analytics-test
        @Test func checkoutIsTracked() {
            let events = Recorded<String>()
            withInjected(Analytics { event, _ in events.append(event) }) {
                checkout(items: ["book"])
            }
            #expect(events.all == ["checkout"])
        }
        // doc-end

        @Test func strictModeReportsAndUsesTheTestValue() {
            let reported = Recorded<String>()
            withInjected(StrictMode { reported.append("\($0)") }) {
                #expect(Discounts.current.percentage("SUMMER") == 0)  // the test value
                #expect(BuildInfo.current.version == BuildInfo.defaultValue.version)  // live, unreported
            }
            #expect(reported.all == ["Discounts"])
        }

        @Test func theProtocolDesign() async throws {
            let processor = RecordingProcessor()
            let receipt = try await withInjected(PaymentService(processor: processor)) {
                try await PaymentService.current.processor.charge(cents: 500)
            }
            #expect(receipt == "charged 500")
            #expect(processor.charges.all == [500])
        }

        @Test func theClassDesign() {
            let store = FeatureStore(enabled: ["newCheckout"])
            withInjected(store) {
                #expect(FeatureStore.current === store)
                FeatureStore.current.enable("darkMode")
            }
            #expect(store.isEnabled("darkMode"))
        }

        @Test func twoStoresOfOneType() {
            let shared = Defaults.inMemory(["colour": "Blue"])
            withInjected(Defaults.inMemory(["colour": "Red"]), SharedDefaults(defaults: shared)) {
                #expect(Defaults.current.string(forKey: "colour") == "Red")
                #expect(SharedDefaults.current.defaults.string(forKey: "colour") == "Blue")
            }
        }
    }

    /// A test value that strict mode reports and then uses.
    struct Discounts: AmbientValue {
        var percentage: @Sendable (_ code: String) -> Int

        static var defaultValue: Discounts { Discounts { _ in 50 } }
        static var testValue: Discounts? { Discounts { _ in 0 } }  // strict mode: no discount, and a report
    }

    // doc: allows-live
    struct BuildInfo: AmbientValue {
        var version: String

        static let live = BuildInfo(
            version: Bundle.main.infoDictionary?["CFBundleShortVersionString"] as? String ?? "dev")
        static var defaultValue: BuildInfo { live }
        static var allowsLiveReadsUnderStrictMode: Bool { true }  // harmless to read live: never reported
    }
    // doc-end

    final class RecordingProcessor: PaymentProcessor {
        let charges = Recorded<Int>()
        func charge(cents: Int) async throws -> String {
            charges.append(cents)
            return "charged \(cents)"
        }
    }

    final class StripeProcessor: PaymentProcessor {
        static let shared = StripeProcessor()
        func charge(cents: Int) async throws -> String { "live" }
    }

    // doc: protocol
    protocol PaymentProcessor: Sendable {
        func charge(cents: Int) async throws -> String
    }

    struct PaymentService: AmbientValue {
        var processor: any PaymentProcessor

        static var defaultValue: PaymentService { PaymentService(processor: StripeProcessor.shared) }
    }
    // doc-end

    // doc: class
    final class FeatureStore: AmbientValue {
        static let shared = FeatureStore(enabled: [])

        private let lock = NSLock()
        nonisolated(unsafe) private var enabled: Set<String>  // only touched with `lock` held

        init(enabled: Set<String>) { self.enabled = enabled }

        static var defaultValue: FeatureStore { shared }

        func isEnabled(_ feature: String) -> Bool { lock.withLock { enabled.contains(feature) } }
        func enable(_ feature: String) { _ = lock.withLock { enabled.insert(feature) } }
    }
    // doc-end

    // doc: wrapper
    struct SharedDefaults: AmbientValue {
        var defaults: Defaults

        static let live = SharedDefaults(defaults: Defaults.suite("group.com.example.app") ?? .standard)
        static var defaultValue: SharedDefaults { live }
    }
    // doc-end
}

/// A lock-protected list, for fakes that record from any task or thread.
final class Recorded<Element: Sendable>: Sendable {
    private let lock = NSLock()
    nonisolated(unsafe) private var elements: [Element] = []  // only touched with `lock` held

    func append(_ element: Element) { lock.withLock { elements.append(element) } }
    var all: [Element] { lock.withLock { elements } }
}
