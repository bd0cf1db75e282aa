// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation
import Testing

extension Notification.Name {
    fileprivate static let cartChanged = Notification.Name("ambient.tests.cartChanged")
}

@Suite("Notifications")
struct NotificationsTests {
    /// Legacy code, ported by one word: `NotificationCenter.default` → `Notifications.current`.
    func addToCart(_ item: String) {
        Notifications.current.post(name: .cartChanged, object: nil, userInfo: ["item": item])
    }

    @Test func theLiveValueIsTheDefaultCenter() {
        #expect(Notifications.current.center === NotificationCenter.default)
        #expect(Notifications.current.description == "Notifications.live")
    }

    @Test func anIsolatedCenterHearsOnlyItsOwnPosts() {
        let seen = Locked<[String]>([])
        let onDefault = NotificationCenter.default.addObserver(forName: .cartChanged, object: nil, queue: nil) { _ in
            seen.withLock { $0.append("default") }
        }
        defer { NotificationCenter.default.removeObserver(onDefault) }
        withInjected(Notifications.isolated()) {
            let token = Notifications.current.addObserver(forName: .cartChanged) { note in
                seen.withLock { $0.append(note.userInfo?["item"] as? String ?? "?") }
            }
            defer { Notifications.current.removeObserver(token) }
            addToCart("tea")
            NotificationCenter.default.post(name: .cartChanged, object: nil)  // another test's post
        }
        #expect(seen.get() == ["tea", "default"])
    }

    @Test func parallelTestsNeverSeeEachOthersPosts() async {
        let counts = await withTaskGroup(of: Int.self) { group in
            for index in 0..<64 {
                group.addTask {
                    await withInjected(Notifications.isolated()) {
                        let heard = Locked<[String]>([])
                        let token = Notifications.current.addObserver(forName: .cartChanged) { note in
                            heard.withLock { $0.append(note.userInfo?["item"] as? String ?? "?") }
                        }
                        for round in 0..<20 {
                            addToCart("\(index)-\(round)")
                            await Task.yield()
                        }
                        Notifications.current.removeObserver(token)
                        let items = heard.get()
                        return items == (0..<20).map { "\(index)-\($0)" } ? items.count : -1
                    }
                }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(counts == Array(repeating: 20, count: 64))
    }
}
