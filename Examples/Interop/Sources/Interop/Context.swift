// SPDX-License-Identifier: Apache-2.0

import Ambient
import Instrumentation

// Why: what the Integrations article's blocks (Integrations.swift, extracted by
// scripts/doc-blocks) name and leave out: the flags' decoding error and a carrier's
// injector and extractor for a dictionary of headers.

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
