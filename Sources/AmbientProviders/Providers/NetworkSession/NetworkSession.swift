// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Why: legacy code fetches with `URLSession.shared`, so its tests hit the real network (slow,
// flaky, or a request nobody meant to make). The same calls on an ambient value go to a
// session, or to a table of answers that fails the test on a request it did not expect.

/// The ambient network: `URLSession`'s fetching calls, on a real session or on a stub that
/// answers from a table. Use it where code used `URLSession.shared`.
///
/// ```swift
/// func fetchGreeting() async throws -> String {
///     let (data, _) = try await NetworkSession.current.data(from: URL(string: "https://api.example.com/hello")!)
///     return String(decoding: data, as: UTF8.self)
/// }
///
/// let stub = NetworkSession.stub([.get("https://api.example.com/hello", body: "hi")])
/// try await withInjected(stub) {
///     #expect(try await fetchGreeting() == "hi")
/// }
/// #expect(stub.requests.map(\.url?.path) == ["/hello"])
/// ```
///
/// A stub never touches the network and never hangs: a request that matches no route is
/// reported through ``IssueReporter`` — it fails the running test, at the line that made the
/// stub — and answered with ``UnexpectedRequest``. The report is made where the request is
/// made (`data(for:)` or a task's `resume()`), so under Swift Testing it reaches the test
/// when the test's task (or a child of it) makes the request; from a queue or a thread it
/// goes to standard error, as ``IssueReporter/automatic`` says, and the request fails all
/// the same. XCTest follows the running test method from any thread: there it fails the
/// test wherever the request is made.
///
/// Completion handlers run with the values of the scope that made the task (live and stub
/// alike): `Clock.current` in a handler is the test's clock.
public struct NetworkSession: AmbientValue, CustomStringConvertible {
    @usableFromInline
    enum Transport: Sendable {
        case session(URLSession)
        case stub(NetworkStub)
        /// ``NetworkSession/followingCurrent``: the current session's transport at each
        /// request (`transport` resolves it; no request sees it).
        case following
    }

    /// `nil` for `URLSession.shared` (so a never-injected read copies a null).
    @usableFromInline
    let ownTransport: Transport?

    @usableFromInline
    init(transport: Transport?) {
        ownTransport = transport
    }

    /// Where requests go: never `.following`, which resolves to the current session's (the
    /// live one where that is ``followingCurrent`` too).
    private var transport: Transport {
        switch ownTransport {
        case nil: return .session(.shared)
        case .following?:
            switch NetworkSession.current.ownTransport {
            case nil, .following?: return .session(.shared)
            case let current?: return current
            }
        case let own?: return own
        }
    }

    /// `transport` never is: a request that found it would have nowhere to go.
    private static let unresolved = "NetworkSession: a following transport reached a request unresolved"

    /// Requests go to `session`.
    public init(session: URLSession) {
        self.init(transport: .session(session))
    }

    /// `URLSession.shared`.
    public static let live = NetworkSession(transport: nil)

    /// The session ``AmbientValue/current`` is wherever this value is used, not where it was taken: each
    /// request goes to the current one. What the one-file port's `URLSession.shared` is, so
    /// that a session kept in a property (made before a test's scope) sends to the stub the
    /// running test injected.
    ///
    /// Injected itself, it is the live session.
    public static let followingCurrent = NetworkSession(transport: .following)

    /// The live network, built in place (inlinable: no lazy global's check).
    @inlinable
    public static var defaultValue: NetworkSession {
        NetworkSession(transport: nil)
    }

    /// A network that answers from `routes`, in order, the first match winning; a request no
    /// route matches is reported (failing the test) and answered with ``UnexpectedRequest``.
    ///
    /// ```swift
    /// NetworkSession.stub([
    ///     .get("https://api.example.com/user/1", body: #"{"name":"Ada"}"#),
    ///     .init(method: "POST", url: "https://api.example.com/items", status: 201),
    ///     .init(url: "https://api.example.com/down", failure: URLError(.notConnectedToInternet)),
    /// ])
    /// ```
    ///
    /// The location parameters name the test's line in a report; leave their defaults.
    public static func stub(
        _ routes: [Route], fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
        column: Int = #column
    ) -> NetworkSession {
        let location = IssueReporter.Location(fileID: fileID, filePath: filePath, line: line, column: column)
        return NetworkSession(transport: .stub(NetworkStub(routes: routes, location: location)))
    }

    /// A network that answers each request with what `answer` returns for it; `nil` means
    /// the request was not expected: it is reported (failing the test) and answered with
    /// ``UnexpectedRequest``. For answers that change from one request to the next:
    ///
    /// ```swift
    /// let attempts = Mutex(0)                          // Synchronization
    /// let flaky = NetworkSession.stub { request in
    ///     let attempt = attempts.withLock { $0 += 1; return $0 }
    ///     return .response(status: attempt == 1 ? 503 : 200, headers: [:], body: Data())
    /// }
    /// ```
    ///
    /// The handler runs where the request is made, on any thread; it must not block.
    public static func stub(
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
        answering answer: @escaping @Sendable (URLRequest) -> Route.Answer?
    ) -> NetworkSession {
        let location = IssueReporter.Location(fileID: fileID, filePath: filePath, line: line, column: column)
        return NetworkSession(transport: .stub(NetworkStub(routes: [], handler: answer, location: location)))
    }

    /// The requests this stub was asked for, in order (empty for a session).
    public var requests: [URLRequest] {
        guard case .stub(let stub) = transport else { return [] }
        return stub.requests
    }

    /// `URLSession.shared`, a session, or the stub and its routes.
    public var description: String {
        if case .following? = ownTransport { return "NetworkSession.followingCurrent" }
        switch transport {
        case .session:
            return ownTransport == nil ? "NetworkSession.live" : "NetworkSession(session:)"
        case .stub(let stub):
            return stub.handler == nil
                ? "NetworkSession.stub(\(stub.routes.count) routes)" : "NetworkSession.stub(answering:)"
        case .following:
            preconditionFailure(Self.unresolved)
        }
    }

    // MARK: - Async

    /// `URLSession.data(for:)`.
    public func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        switch transport {
        case .session(let session):
            return try await session.data(for: request)
        case .stub(let stub):
            try Task.checkCancellation()
            return try stub.answer(request).get()
        case .following:
            preconditionFailure(Self.unresolved)
        }
    }

    /// `URLSession.data(from:)`.
    public func data(from url: URL) async throws -> (Data, URLResponse) {
        try await data(for: URLRequest(url: url))
    }

    // MARK: - Completion handlers

    /// `URLSession.dataTask(with:completionHandler:)`: call ``DataTask/resume()`` to start
    /// it. The handler runs on a background queue, inside the scope that made the task.
    public func dataTask(
        with request: URLRequest,
        completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> DataTask {
        let handler = InjectionContext.current.bind(completionHandler)
        switch transport {
        case .session(let session):
            return DataTask(.session(session.dataTask(with: request, completionHandler: handler)))
        case .stub(let stub):
            return DataTask(.stub(stub, request, handler))
        case .following:
            preconditionFailure(Self.unresolved)
        }
    }

    /// `URLSession.dataTask(with:completionHandler:)` for a URL.
    public func dataTask(
        with url: URL, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void
    ) -> DataTask {
        dataTask(with: URLRequest(url: url), completionHandler: completionHandler)
    }
}
