// SPDX-License-Identifier: Apache-2.0

import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Why: the one-file port compiles in this module's language mode and isolation, and each
// shadowed name is usable from code that runs off the main actor.

/// Reads each shadowed name from a nonisolated function, as background code does.
nonisolated func readsEverySingleton() -> [String] {
    let queue = DispatchQueue(label: "uses")
    queue.async { print("on the queue at", Date()) }
    DispatchQueue.global().async { NSLog("global %@", "queue") }
    DispatchQueue.main.asyncAfter(deadline: .now() + 1) {}
    OperationQueue().addOperation { UserDefaults.standard.set(1, forKey: "count") }
    OperationQueue.main.addOperation {}
    Thread { Thread.sleep(forTimeInterval: 0.1) }.start()
    let group = DispatchGroup()
    group.notify(queue: .main) {}
    group.notify(queue: .global()) {}
    NotificationCenter.default.post(name: Notification.Name("uses"), object: nil)
    URLSession.shared.dataTask(with: URL(string: "https://example.com")!) { _, _, _ in }.resume()
    let formatter = DateFormatter()
    formatter.dateStyle = .short
    return [
        formatter.string(from: Date()), UUID().uuidString, Locale.current.identifier, TimeZone.current.identifier,
        "\(Calendar.current.identifier)", ProcessInfo.processInfo.environment["HOME"] ?? "",
        FileManager.default.temporaryDirectory.path, "\(Thread.isMainThread)", "\(Date.now.timeIntervalSinceNow)",
    ]
}
