// SPDX-License-Identifier: Apache-2.0

import Foundation

// Why: what the article's blocks name and leave out: the app's model and its own logging
// singleton, as the legacy module has them.

struct Reminder: Sendable {
    var title: String
    var due: Date
}

final class AppLogger: Sendable {
    static let shared = AppLogger()
    func info(_ message: String) { print(message) }
}
