// SPDX-License-Identifier: Apache-2.0

import Foundation

// Why: a page shows what a block prints; the block's test runs it and compares what it
// printed with the page. Tests run in parallel and print too, so what a block prints is
// recorded per task, not read from the process's standard output.

/// What the blocks of a page print while a test runs them: each page's generated file
/// declares a `print` that writes here when a capture is running in its task (and to
/// standard output otherwise).
public final class PrintCapture: Sendable {
    /// The capture of the running task, if any.
    @TaskLocal public static var current: PrintCapture?

    private let lock = NSLock()
    nonisolated(unsafe) private var text = ""  // only touched with `lock` held

    /// Records `printed`.
    public func append(_ printed: String) { lock.withLock { text += printed } }

    /// What `body` printed through the page's `print`.
    public static func output(of body: () async throws -> Void) async throws -> String {
        let capture = PrintCapture()
        try await $current.withValue(capture) { try await body() }
        return capture.lock.withLock { capture.text }
    }
}
