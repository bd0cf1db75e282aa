// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation

/// A 2015-style archiver from a Swift 5 module: a serial queue for its work, the global
/// queue for compressing, an operation queue for writing and a thread for pruning. Ported by
/// changing the lines that make its queues and its thread (each `was:` is the line before);
/// its six submissions are as they were, and none needs a `bind` to run in the caller's
/// scope.
public final class ReceiptArchiver {
    /// The process's archiver.
    public static let shared = ReceiptArchiver()

    // was: private let queue = DispatchQueue(label: "archiver")
    private let queue = CarryingQueue(label: "archiver")
    // was: private let writes = OperationQueue()
    private let writes = CarryingOperationQueue()

    /// An idle archiver.
    public init() {}

    /// Archives `receipt` to the caches folder, stamped with the time, then calls
    /// `completion` on the writing queue.
    public func archive(_ receipt: String, completion: @escaping @Sendable () -> Void) {
        queue.async {
            let stamped = "\(receipt)@\(Int(Clock.current.now.timeIntervalSince1970))"
            // was: DispatchQueue.global().async {
            BackgroundQueue.current.async {
                let compressed = Data(stamped.utf8)
                self.writes.addOperation {
                    let url = FileSystem.current.url(for: .caches).appendingPathComponent("\(receipt).archive")
                    try? FileSystem.current.write(compressed, to: url)
                    Logger.current.info("archived \(receipt)")
                    completion()
                }
            }
        }
    }

    /// Tries the archive's upload again a minute later.
    public func retryLater() {
        queue.asyncAfter(deadline: .now() + 60) {
            Defaults.current.set(true, forKey: "archiver.retried")
        }
    }

    /// Prunes old archives on a thread of its own.
    public func pruneInBackground() {
        // was: Thread {
        CarryingThread {
            Defaults.current.set(Clock.current.now.timeIntervalSince1970, forKey: "archiver.pruned")
        }.start()
    }

    /// How many archives are waiting to be written, read on the archiver's queue.
    public func pendingCount() -> Int {
        queue.sync { Defaults.current.integer(forKey: "archiver.pending") }
    }
}
