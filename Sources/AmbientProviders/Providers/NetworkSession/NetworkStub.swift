// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Why: the stub's state — its table, the requests it was asked for, and where it was made
// (the line a report of an unexpected request points at) — shared by every copy of the value.

/// A ``NetworkSession/stub(_:fileID:filePath:line:column:)``'s table and log.
@usableFromInline
final class NetworkStub: Sendable {
    let routes: [NetworkSession.Route]
    /// Asked first, when the stub was made with one: `nil` means "not mine" (the routes, then
    /// the report, come next).
    let handler: (@Sendable (URLRequest) -> NetworkSession.Route.Answer?)?
    let location: IssueReporter.Location
    private let log = Locked<[URLRequest]>([])

    init(
        routes: [NetworkSession.Route], handler: (@Sendable (URLRequest) -> NetworkSession.Route.Answer?)? = nil,
        location: IssueReporter.Location
    ) {
        self.routes = routes
        self.handler = handler
        self.location = location
    }

    var requests: [URLRequest] {
        log.get()
    }

    /// Logs `request` and answers it; a request no route matches is reported here, in the
    /// caller's context, and answered with ``NetworkSession/UnexpectedRequest``.
    func answer(_ request: URLRequest) -> Result<(Data, URLResponse), any Error> {
        log.withLock { $0.append(request) }
        let answer = handler?(request) ?? routes.first(where: { $0.matches(request) })?.answer
        guard let answer, let url = request.url else {
            let unexpected = NetworkSession.UnexpectedRequest(
                request: "\(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "(no URL)")",
                routes: routes.map(\.description) + (handler == nil ? [] : ["(a handler, which answered nil)"]))
            IssueReporter.current.report(unexpected.description, at: location)
            return .failure(unexpected)
        }
        switch answer {
        case .failure(let error):
            return .failure(error)
        case .response(let status, let headers, let body):
            let response =
                HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)
                ?? URLResponse(url: url, mimeType: nil, expectedContentLength: body.count, textEncodingName: nil)
            return .success((body, response))
        }
    }
}
