// SPDX-License-Identifier: Apache-2.0

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Why: a page shows what a block prints; the block's test runs it and compares what it
// printed with the page.

/// What `body` wrote to standard output, captured: the descriptor points at a pipe for the
/// call (one call at a time; the tests that use it are serialised by `lock`).
public func standardOutput(_ body: () async throws -> Void) async throws -> String {
    await lock.acquire()
    defer { lock.release() }
    fflush(nil)
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
    let saved = dup(STDOUT_FILENO)
    dup2(ends[1], STDOUT_FILENO)
    close(ends[1])
    let reader = Task.detached { () -> Data in
        FileHandle(fileDescriptor: ends[0], closeOnDealloc: true).readDataToEndOfFile()
    }
    do {
        try await body()
    } catch {
        fflush(nil)
        dup2(saved, STDOUT_FILENO)
        close(saved)
        _ = await reader.value
        throw error
    }
    fflush(nil)
    dup2(saved, STDOUT_FILENO)
    close(saved)
    return String(decoding: await reader.value, as: UTF8.self)
}

/// One capture at a time: standard output is one per process.
private let lock = AsyncLock()

/// A lock an async caller waits for without blocking a thread.
private final class AsyncLock: @unchecked Sendable {
    private let state = NSLock()
    private var held = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        await withCheckedContinuation { continuation in
            state.lock()
            if held {
                waiting.append(continuation)
                state.unlock()
            } else {
                held = true
                state.unlock()
                continuation.resume()
            }
        }
    }

    func release() {
        state.lock()
        if waiting.isEmpty {
            held = false
            state.unlock()
        } else {
            let next = waiting.removeFirst()
            state.unlock()
            next.resume()
        }
    }
}
