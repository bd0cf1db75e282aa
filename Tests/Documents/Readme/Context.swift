// SPDX-License-Identifier: Apache-2.0

import Foundation

// Why: what README.md's blocks name and leave out: the app's own remote configuration and
// a fixed instant.

final class RemoteConfig: Sendable {
    static let shared = RemoteConfig()
    let newCheckout = false
}

let noon = Date(timeIntervalSince1970: 86_400 + 43_200)
