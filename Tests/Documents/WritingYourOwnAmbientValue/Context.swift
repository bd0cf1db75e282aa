// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation

// Why: what the article's blocks name and leave out: the app's other singletons (as
// Examples/App has them), the vendors' SDKs they wrap, and a thread-safe recorder for fakes.

/// A flag the checkout reads.
struct FeatureFlags: AmbientValue {
    var expressCheckout: Bool
    static var defaultValue: FeatureFlags { FeatureFlags(expressCheckout: false) }
}

/// A class any thread calls, guarding its state with a lock.
final class ImageCache: AmbientValue, @unchecked Sendable {
    static let shared = ImageCache()
    static var defaultValue: ImageCache { shared }

    private let lock = NSLock()
    private var images: [String: Data] = [:]  // only touched with `lock` held

    func image(named name: String) -> Data? { lock.withLock { images[name] } }
    func store(_ image: Data, named name: String) { lock.withLock { images[name] = image } }
}

/// The checkout screen's model: it reads the ambient values on the main actor.
@MainActor final class CheckoutViewModel {
    func load() {
        if FeatureFlags.current.expressCheckout, ImageCache.current.image(named: "avatar-me") != nil {
            AnalyticsClient.current.track("checkout.load")
        }
    }
}

/// A vendor's analytics SDK, callable from any thread.
final class EventsSDK: Sendable {
    static let shared = EventsSDK()
    func send(_ event: String, _ properties: [String: String]) {}
}

/// A vendor's pricing service.
final class PricingService: Sendable {
    static let shared = PricingService()
    func percentOff(_ code: String) -> Int { code.isEmpty ? 0 : 10 }
}

/// A vendor's payment processor.
final class StripeProcessor: PaymentProcessor {
    static let shared = StripeProcessor()
    func charge(cents: Int) async throws -> String { "ch_\(cents)" }
}

/// What a fake received, from any thread.
final class Recorded<Element: Sendable>: Sendable {
    private let lock = NSLock()
    nonisolated(unsafe) private var elements: [Element] = []  // only touched with `lock` held

    func append(_ element: Element) { lock.withLock { elements.append(element) } }
    var all: [Element] { lock.withLock { elements } }
}
