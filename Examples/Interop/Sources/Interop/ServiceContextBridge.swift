// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation
import Instrumentation

// doc: integrations-service-context
// A value that may travel between processes opts in to a string encoding.
struct CheckoutFlags: CarriableValue {
    var newCheckout: Bool
    static var defaultValue: CheckoutFlags { CheckoutFlags(newCheckout: false) }

    static var carrierKey: String { "checkout-flags" }
    var carrierEncoding: String? { newCheckout ? "new" : "old" }
    init(newCheckout: Bool) { self.newCheckout = newCheckout }
    init(carrierEncoding: String) throws {
        guard ["new", "old"].contains(carrierEncoding) else { throw CheckoutFlagsError() }
        newCheckout = carrierEncoding == "new"
    }
}

// Both sides agree on what travels (or `InstrumentationSystem.bootstrap(instrument)`) and
// hold the key that signs it: the receiver applies only what a key it trusts signed (trait
// SwiftCrypto). A test key made here; a deployment reads its keys from its secret store.
let testKey = try! CarrierSigningKey(id: "test", secret: (0..<32).map { _ in UInt8.random(in: 0...255) })
let instrument = AmbientInstrument(
    carrying: CarriedValues(Clock.self, CheckoutFlags.self),
    signingWith: .hmacSHA256(testKey), trusting: .signed(by: [testKey]))

// The client (a test): the values current here go into the request's headers.
func requestHeaders() -> [String: String] {
    withInjected(Clock.fixed(Date(timeIntervalSinceReferenceDate: 0)), CheckoutFlags(newCheckout: true)) {
        var headers: [String: String] = [:]
        instrument.inject(ServiceContext.current ?? .topLevel, into: &headers, using: HeadersInjector())
        return headers  // ambient-clock: fixed:0.0, ambient-checkout-flags: new, ambient-signature: v1:test:…
    }
}

// The server: extract into the request's ServiceContext, then handle inside it.
func serve(headers: [String: String]) -> String {
    var context = ServiceContext.topLevel
    instrument.extract(headers, into: &context, using: HeadersExtractor())
    return withInjected(carriedBy: context) {
        "\(Clock.current.now) new checkout: \(CheckoutFlags.current.newCheckout)"
    }
}
// doc-end

struct CheckoutFlagsError: Error, CustomStringConvertible {
    var description: String { "expected new or old" }
}

struct HeadersInjector: Injector {
    func inject(_ value: String, forKey key: String, into headers: inout [String: String]) {
        headers[key] = value
    }
}

struct HeadersExtractor: Extractor {
    func extract(key: String, from headers: [String: String]) -> String? { headers[key] }
}
