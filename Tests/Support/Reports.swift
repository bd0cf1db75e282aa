// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders

/// Collects what is reported through an injected `IssueReporter`: each message and the
/// line it points at.
final class Reports: Sendable {
    private let collected = Locked<[(message: String, line: Int)]>([])
    var messages: [String] { collected.withLock { $0.map(\.message) } }
    var lines: [Int] { collected.withLock { $0.map(\.line) } }
    var reporter: IssueReporter {
        IssueReporter { [collected] message, location in collected.withLock { $0.append((message, location.line)) } }
    }
}
