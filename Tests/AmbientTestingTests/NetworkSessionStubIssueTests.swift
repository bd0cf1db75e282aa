// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request a stub did not expect fails a plain Swift Testing test (no trait), at the
/// line that made the stub, and is answered at once: the test neither hangs nor passes.
@Suite("NetworkSession.stub: an unexpected request fails the test")
struct NetworkStubIssueTests {
    @Test func anUnexpectedAsyncRequestFailsAPlainTest() async {
        let stubLine = #line + 1
        let stub = NetworkSession.stub([.get("https://api.example.com/hello", body: "hi")])
        await withKnownIssue {
            let answered = await withInjected(stub) { () async -> (any Error)? in
                do {
                    _ = try await NetworkSession.current.data(
                        from: URL(string: "https://api.example.com/nobody-expected")!)
                    return nil
                } catch {
                    return error
                }
            }
            #expect(answered is NetworkSession.UnexpectedRequest)
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue.contains("unexpected request GET https://api.example.com/nobody-expected")
            }
                && issue.sourceLocation?.line == stubLine
        }
    }

    @Test func anUnexpectedCompletionHandlerRequestFailsAPlainTest() async {
        let stub = NetworkSession.stub([])
        await withKnownIssue {
            let error = await withInjected(stub) {
                await withCheckedContinuation { continuation in
                    NetworkSession.current.dataTask(with: URL(string: "https://api.example.com/legacy")!) {
                        _, _, error in
                        continuation.resume(returning: error)
                    }.resume()
                }
            }
            #expect(error is NetworkSession.UnexpectedRequest)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("unexpected request GET https://api.example.com/legacy") }
        }
    }
}
