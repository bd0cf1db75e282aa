// SPDX-License-Identifier: Apache-2.0

import Ambient

// An app singleton as it is written: a class with mutable state and a shared instance. In
// this target (main actor by default) it is main-actor-isolated; conforming to
// `MainActorAmbientValue` needs no other annotation.

final class AnalyticsClient: MainActorAmbientValue {
    static let shared = AnalyticsClient(endpoint: "https://events.example.com")
    static var defaultValue: AnalyticsClient { shared }

    let endpoint: String
    private(set) var events: [String] = []

    init(endpoint: String = "memory:") { self.endpoint = endpoint }

    func track(_ event: String) { events.append(event) }
}
