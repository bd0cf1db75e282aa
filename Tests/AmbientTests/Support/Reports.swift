@testable import Ambient

/// Collects what is reported through an injected `IssueReporter`.
final class Reports: Sendable {
    private let collected = Locked<[String]>([])
    var messages: [String] { collected.withLock { $0 } }
    var reporter: IssueReporter {
        IssueReporter { [collected] message, _ in collected.withLock { $0.append(message) } }
    }
}
