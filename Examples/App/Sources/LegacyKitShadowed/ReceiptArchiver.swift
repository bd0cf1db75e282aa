// SPDX-License-Identifier: Apache-2.0

import Foundation

/// A 2015-style archiver from a Swift 5 module, as it was written: a serial queue for its
/// work, the global queue for compressing, an operation queue for writing and a thread for
/// pruning (LegacyKit's `ReceiptArchiver` before its port). This module adopts Ambient by its
/// one added file, AmbientShadows.swift; not a line here changed.
public final class ReceiptArchiver {
    /// The process's archiver.
    public static let shared = ReceiptArchiver()

    private let queue = DispatchQueue(label: "archiver")
    private let writes = OperationQueue()

    /// An idle archiver.
    public init() {}

    /// Archives `receipt` to the caches folder, stamped with the time, then calls
    /// `completion` on the writing queue.
    public func archive(_ receipt: String, completion: @escaping @Sendable () -> Void) {
        queue.async {
            let stamped = "\(receipt)@\(Int(Date().timeIntervalSince1970))"
            DispatchQueue.global().async {
                let compressed = Data(stamped.utf8)
                self.writes.addOperation {
                    let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
                    try? compressed.write(to: caches.appendingPathComponent("\(receipt).archive"))
                    print("archived \(receipt)")
                    completion()
                }
            }
        }
    }

    /// Tries the archive's upload again a minute later.
    public func retryLater() {
        queue.asyncAfter(deadline: .now() + 60) {
            UserDefaults.standard.set(true, forKey: "archiver.retried")
        }
    }

    /// Prunes old archives on a thread of its own.
    public func pruneInBackground() {
        Thread {
            UserDefaults.standard.set(Date().timeIntervalSince1970, forKey: "archiver.pruned")
        }.start()
    }

    /// How many archives are waiting to be written, read on the archiver's queue.
    public func pendingCount() -> Int {
        queue.sync { UserDefaults.standard.integer(forKey: "archiver.pending") }
    }
}
