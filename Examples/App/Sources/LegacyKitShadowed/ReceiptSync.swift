// SPDX-License-Identifier: Apache-2.0

import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Notification.Name {
    /// Posted when receipts have been fetched and cached.
    public static let receiptsSynced = Notification.Name("ReceiptsSynced")
}

/// A 2015-style service from a Swift 5 module, reading six system singletons, as it was
/// written: LegacyKit's `ReceiptSync` before its port. This module adopts Ambient by its one
/// added file, AmbientShadows.swift; not a line here changed.
public final class ReceiptSync {
    /// The process's service.
    public static let shared = ReceiptSync()

    /// An idle service.
    public init() {}

    /// "Synced Nov 14, 2023 at 5:13 PM" in the user's locale and time zone.
    public func syncedLabel(at date: Date) -> String {
        let formatter = DateFormatter()
        formatter.dateStyle = .medium
        formatter.timeStyle = .short
        return "Synced " + formatter.string(from: date)
    }

    /// Where receipts come from: `RECEIPTS_URL`, else production.
    public var endpoint: URL {
        URL(string: ProcessInfo.processInfo.environment["RECEIPTS_URL"] ?? "https://receipts.example.com/latest")!
    }

    /// Where the last receipts are cached.
    public var cacheURL: URL {
        FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0].appendingPathComponent("receipts.json")
    }

    /// Fetches the receipts, caches them and announces it; a failed fetch is retried 5 s
    /// later on the main queue, up to `retries` times. `completion` gets the bytes cached.
    public func sync(retries: Int = 3, completion: @escaping @Sendable (Result<Int, Error>) -> Void) {
        let cacheURL = cacheURL
        URLSession.shared.dataTask(with: endpoint) { data, response, error in
            guard let data, (response as? HTTPURLResponse)?.statusCode == 200 else {
                guard retries > 0 else { return completion(.failure(error ?? URLError(.badServerResponse))) }
                DispatchQueue.main.asyncAfter(deadline: .now() + 5) {
                    ReceiptSync.shared.sync(retries: retries - 1, completion: completion)
                }
                return
            }
            do {
                try data.write(to: cacheURL)
                NotificationCenter.default.post(name: .receiptsSynced, object: nil)
                completion(.success(data.count))
            } catch {
                completion(.failure(error))
            }
        }.resume()
    }
}
