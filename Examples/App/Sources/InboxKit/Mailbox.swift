// SPDX-License-Identifier: Apache-2.0

import Ambient

// Why: the module's own singleton, the mail server, made ambient by its declaration; the same
// file in InboxKit and in its one-file port (InboxKitShadowed links it), since that port takes
// over the system's names, not the module's.

/// The mail server, as the sync reads it: an ambient value the module declares, so a test
/// injects a fake server as it injects `Defaults`.
public struct Mailbox: AmbientValue {
    /// Asks for the account's state (a sync token); the answer comes back later, on a
    /// thread of the server's choosing, as a completion handler's does.
    public var account: @Sendable (_ answer: @escaping @Sendable (Result<String, SyncError>) -> Void) -> Void
    /// A folder's messages for the account.
    public var messages: @Sendable (_ account: String, _ folder: String) -> [String]

    /// A server with these answers.
    public init(
        account: @escaping @Sendable (_ answer: @escaping @Sendable (Result<String, SyncError>) -> Void) -> Void,
        messages: @escaping @Sendable (_ account: String, _ folder: String) -> [String]
    ) {
        self.account = account
        self.messages = messages
    }

    /// No server configured: every sync fails.
    public static var defaultValue: Mailbox {
        Mailbox(account: { answer in answer(.failure(.unavailable)) }, messages: { _, _ in [] })
    }
}
