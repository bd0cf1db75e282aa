// SPDX-License-Identifier: Apache-2.0

import Ambient

/// The request being handled, for code deep below the handler (logs, audit records):
/// injected by ``AmbientRequestMiddleware``.
public struct RequestTag: AmbientValue, Equatable, CustomStringConvertible {
    /// The request's ID: its `x-request-id` header, or Hummingbird's own.
    public var id: String

    /// A tag for the request `id`.
    public init(id: String) {
        self.id = id
    }

    /// Outside any request.
    public static var defaultValue: RequestTag { RequestTag(id: "none") }

    /// The ID.
    public var description: String { id }
}
