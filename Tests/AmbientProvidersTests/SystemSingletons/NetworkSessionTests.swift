// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("NetworkSession")
struct NetworkTests {
    /// Legacy code, ported by one word: `URLSession.shared` → `NetworkSession.current`.
    func fetchGreeting() async throws -> String {
        let (data, _) = try await NetworkSession.current.data(from: URL(string: "https://api.example.com/hello")!)
        return String(decoding: data, as: UTF8.self)
    }

    func fetchUser(_ id: Int, completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
        NetworkSession.current.dataTask(with: URL(string: "https://api.example.com/user/\(id)")!) {
            data, response, error in
            if let error { return completion(.failure(error)) }
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            completion(.success("\(status) " + String(decoding: data ?? Data(), as: UTF8.self)))
        }.resume()
    }

    func fetchUser(_ id: Int) async -> Result<String, any Error> {
        await withCheckedContinuation { continuation in fetchUser(id) { continuation.resume(returning: $0) } }
    }

    @Test func aStubAnswersFromItsTableAndLogsTheRequests() async throws {
        let stub = NetworkSession.stub([
            .get("https://api.example.com/hello", headers: ["Content-Type": "text/plain"], body: "hi"),
            .init(method: "POST", url: "https://api.example.com/items", status: 201),
            .init(url: "https://api.example.com/down", failure: URLError(.notConnectedToInternet)),
        ])
        try await withInjected(stub) {
            #expect(try await fetchGreeting() == "hi")
            var post = URLRequest(url: URL(string: "https://api.example.com/items")!)
            post.httpMethod = "POST"
            let (_, response) = try await NetworkSession.current.data(for: post)
            #expect((response as? HTTPURLResponse)?.statusCode == 201)
            await #expect(throws: URLError(.notConnectedToInternet)) {
                try await NetworkSession.current.data(from: URL(string: "https://api.example.com/down")!)
            }
        }
        #expect(stub.requests.map { $0.url?.path ?? "" } == ["/hello", "/items", "/down"])
        #expect(stub.description == "NetworkSession.stub(3 routes)")
    }

    @Test func anUnexpectedRequestIsReportedAtTheStubsLineAndAnsweredWithAnError() async throws {
        let reports = Reports()
        let stubLine = #line + 1
        let stub = NetworkSession.stub([.get("https://api.example.com/hello", body: "hi")])
        await withInjected(stub, reports.reporter) {
            await #expect(throws: NetworkSession.UnexpectedRequest.self) {
                try await NetworkSession.current.data(from: URL(string: "https://api.example.com/other?x=1")!)
            }
            // The completion-handler form answers too: it never hangs.
            let result = await fetchUser(7)
            #expect(throws: NetworkSession.UnexpectedRequest.self) { try result.get() }
        }
        let messages = reports.messages
        #expect(messages.count == 2)
        #expect(reports.lines == [stubLine, stubLine])
        #expect(messages.first?.contains("unexpected request GET https://api.example.com/other?x=1") == true)
        #expect(messages.first?.contains("GET https://api.example.com/hello") == true)
    }

    @Test func completionHandlersRunInTheScopeThatMadeTheTask() async throws {
        let fixed = Date(timeIntervalSince1970: 1_000)
        let stub = NetworkSession.stub([.get("https://api.example.com/user/1", body: "Ada")])
        let seen = await withInjected(stub, Clock.fixed(fixed)) {
            await withCheckedContinuation { continuation in
                NetworkSession.current.dataTask(with: URL(string: "https://api.example.com/user/1")!) { data, _, _ in
                    continuation.resume(returning: (String(decoding: data ?? Data(), as: UTF8.self), Clock.current.now))
                }.resume()
            }
        }
        #expect(seen.0 == "Ada")
        #expect(seen.1 == fixed)
        let result = await withInjected(stub) { await fetchUser(1) }
        #expect(try result.get() == "200 Ada")
    }

    @Test func aHandlerStubAnswersEachRequestAsItComes() async throws {
        let attempts = Locked(0)
        let reports = Reports()
        let flaky = NetworkSession.stub { request in
            guard request.url?.host == "api.example.com" else { return nil }
            let attempt = attempts.withLock { count -> Int in
                count += 1
                return count
            }
            return .response(status: attempt == 1 ? 503 : 200, headers: [:], body: Data("attempt \(attempt)".utf8))
        }
        #expect(flaky.description == "NetworkSession.stub(answering:)")
        try await withInjected(flaky, reports.reporter) {
            () async throws in
            let (_, first) = try await NetworkSession.current.data(from: URL(string: "https://api.example.com/a")!)
            #expect((first as? HTTPURLResponse)?.statusCode == 503)
            #expect(try await fetchGreeting() == "attempt 2")
            await #expect(throws: NetworkSession.UnexpectedRequest.self) {
                try await NetworkSession.current.data(from: URL(string: "https://elsewhere.example.org/")!)
            }
        }
        #expect(reports.messages.count == 1)
        #expect(reports.messages.first?.contains("(a handler, which answered nil)") == true)
        #expect(flaky.requests.count == 3)
    }

    @Test func aStubTaskCancelledBeforeResumeAnswersCancelled() async {
        let stub = NetworkSession.stub([])
        let error = await withInjected(stub) {
            await withCheckedContinuation { continuation in
                let task = NetworkSession.current.dataTask(with: URL(string: "https://api.example.com/x")!) {
                    _, _, error in
                    continuation.resume(returning: error)
                }
                task.cancel()
                task.resume()  // too late: nothing more happens
            }
        }
        #expect((error as? URLError)?.code == .cancelled)
        #expect(stub.requests.isEmpty)
    }

    @Test func aSessionIsUsedAsItIs() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [EchoProtocol.self]
        let network = NetworkSession(session: URLSession(configuration: configuration))
        #expect(network.description == "NetworkSession(session:)")
        #expect(NetworkSession.current.description == "NetworkSession.live")
        try await withInjected(network) { () async throws in
            #expect(try await fetchGreeting() == "echo /hello")
            #expect(try await fetchUser(3).get() == "200 echo /user/3")
        }
        #expect(network.requests.isEmpty)
    }

    @Test func parallelTestsEachGetTheirOwnStub() async {
        await withTaskGroup(of: Bool.self) { group in
            for index in 0..<64 {
                group.addTask {
                    let stub = NetworkSession.stub([.get("https://api.example.com/hello", body: "\(index)")])
                    return await withInjected(stub) {
                        await Task.yield()
                        let greeting = try? await fetchGreeting()
                        return greeting == "\(index)" && stub.requests.count == 1
                    }
                }
            }
            for await ok in group { #expect(ok) }
        }
    }
}

/// Answers every request with `echo <path>`: a session that never leaves the process.
final class EchoProtocol: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func startLoading() {
        let url = request.url!
        let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:])!
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: Data("echo \(url.path)".utf8))
        client?.urlProtocolDidFinishLoading(self)
    }
    override func stopLoading() {}
}
