// SPDX-License-Identifier: Apache-2.0

import Ambient
import Testing

// Why: what the article's types do, where the page only shows them (their blocks are
// compiled in Blocks.swift; these tests use them).

@Suite struct WritingYourOwnAmbientValueBehaviourTests {
    @Test func strictModeReportsAndUsesTheTestValue() {
        let reported = Recorded<String>()
        withInjected(StrictMode { reported.append("\($0)") }) {
            #expect(Discounts.current.percentOff("SUMMER") == 0)  // the test value
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

/// A fake processor that records what it charged.
final class RecordingProcessor: PaymentProcessor {
    let charges = Recorded<Int>()
    func charge(cents: Int) async throws -> String {
        charges.append(cents)
        return "charged \(cents)"
    }
}
