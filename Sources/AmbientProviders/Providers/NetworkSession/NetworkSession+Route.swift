// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Why: a stub's table — which request gets which answer — and the error a request nobody
// expected gets, kept apart from the transport.

extension NetworkSession {
    /// One row of a stub's table: the requests it matches and what they get.
    public struct Route: Sendable, CustomStringConvertible {
        /// The HTTP method it matches (`"GET"`, …), or `nil` for any.
        public var method: String?
        /// The URL it matches, compared as its absolute string (query included).
        public var url: String
        /// What a matching request gets.
        public var answer: Answer

        /// What a stub answers.
        public enum Answer: Sendable {
            /// An HTTP response.
            case response(status: Int, headers: [String: String], body: Data)
            /// A failure, as the network would give it (`URLError(.notConnectedToInternet)`).
            case failure(URLError)
        }

        /// A route answering `method` requests for `url` with an HTTP response.
        public init(
            method: String? = "GET", url: String, status: Int = 200, headers: [String: String] = [:],
            body: Data = Data()
        ) {
            self.method = method
            self.url = url
            self.answer = .response(status: status, headers: headers, body: body)
        }

        /// A route answering requests for `url` with a failure.
        public init(method: String? = nil, url: String, failure: URLError) {
            self.method = method
            self.url = url
            self.answer = .failure(failure)
        }

        /// A `GET` route answering with `body` as UTF-8 text.
        public static func get(
            _ url: String, status: Int = 200, headers: [String: String] = [:], body: String = ""
        ) -> Route {
            Route(method: "GET", url: url, status: status, headers: headers, body: Data(body.utf8))
        }

        /// Whether `request` is one of this route's.
        func matches(_ request: URLRequest) -> Bool {
            guard request.url?.absoluteString == url else { return false }
            guard let method else { return true }
            return (request.httpMethod ?? "GET").uppercased() == method.uppercased()
        }

        /// `GET https://…`.
        public var description: String {
            "\(method ?? "*") \(url)"
        }
    }

    /// What a stub answers a request that matches none of its routes (after reporting it).
    public struct UnexpectedRequest: Error, CustomStringConvertible {
        /// The method and URL asked for.
        public let request: String
        /// The routes it had.
        public let routes: [String]

        /// Names the request and the routes.
        public var description: String {
            "NetworkSession.stub: unexpected request \(request): no route matches it (routes: "
                + (routes.isEmpty ? "none" : routes.joined(separator: ", "))
                + "). Add a route for it, or find out why the code made it."
        }
    }
}
