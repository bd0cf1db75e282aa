// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Why: `dataTask(with:completionHandler:)` returns something to `resume()`; for a stub that
// is a task answered from the table, reported (when unexpected) where `resume()` is called.

extension NetworkSession {
    /// What ``NetworkSession/dataTask(with:completionHandler:)-(URLRequest,_)`` returns: nothing happens until
    /// ``resume()``, as with `URLSessionDataTask`.
    public final class DataTask: Sendable {
        enum Kind: Sendable {
            case session(URLSessionDataTask)
            case stub(NetworkStub, URLRequest, @Sendable (Data?, URLResponse?, (any Error)?) -> Void)
        }

        private let kind: Kind
        /// 0: not started; 1: resumed; 2: cancelled before it was resumed.
        private let state = Locked<UInt8>(0)

        init(_ kind: Kind) {
            self.kind = kind
        }

        /// Starts the task. On a stub the answer is decided here (an unexpected request is
        /// reported here) and the handler is called on the current background queue, so a
        /// test's wait (`BackgroundQueue.finished()`, a driven queue's `advance`) waits for it
        /// too. A second call does nothing.
        public func resume() {
            switch kind {
            case .session(let task):
                task.resume()
            case .stub(let stub, let request, let handler):
                guard start(as: 1) else { return }
                let result = stub.answer(request)
                BackgroundQueue.current.async {
                    switch result {
                    case .success(let (data, response)): handler(data, response, nil)
                    case .failure(let error): handler(nil, nil, error)
                    }
                }
            }
        }

        /// Cancels the task: a stub task not yet resumed calls its handler with
        /// `URLError(.cancelled)`, as `URLSession` does.
        public func cancel() {
            switch kind {
            case .session(let task):
                task.cancel()
            case .stub(_, _, let handler):
                guard start(as: 2) else { return }
                BackgroundQueue.current.async { handler(nil, nil, URLError(.cancelled)) }
            }
        }

        /// Moves a stub task out of "not started" to `next`; `false` if it had already left.
        private func start(as next: UInt8) -> Bool {
            state.withLock { state in
                guard state == 0 else { return false }
                state = next
                return true
            }
        }

        /// The request, as given.
        public var originalRequest: URLRequest? {
            switch kind {
            case .session(let task): return task.originalRequest
            case .stub(_, let request, _): return request
            }
        }
    }
}
