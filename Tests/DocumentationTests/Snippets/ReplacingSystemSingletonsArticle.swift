// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The ```swift blocks of Sources/Ambient/Ambient.docc/ReplacingSystemSingletons.md, compiled
// and run. Each region from `// doc: name` to `// doc-end` is one block of the article, verbatim.

@Suite("Replacing the System Singletons article")
struct SystemSingletonsArticleTests {
    // doc: region
    func receiptDate(_ date: Date) -> String {
        date.formatted(Region.current.formatStyle(date: .abbreviated, time: .shortened))  // was: date.formatted()
    }

    @Test func receiptsReadTheSameInAuckland() {
        let newYork = Region.fixed(
            locale: Locale(identifier: "en_US"), timeZone: TimeZone(identifier: "America/New_York")!)
        withInjected(newYork) {
            #expect(receiptDate(Date(timeIntervalSince1970: 0)).hasPrefix("Dec 31, 1969"))
        }
    }
    // doc-end

    // doc: environment
    func apiBaseURL() -> String {
        // was: ProcessInfo.processInfo.environment["API_BASE_URL"]
        ProcessEnvironment.current["API_BASE_URL"] ?? "https://api.example.com"
    }

    @Test func theBaseURLComesFromTheEnvironment() {
        withInjected(ProcessEnvironment.live.overriding(["API_BASE_URL": "http://localhost:8080"])) {
            #expect(apiBaseURL() == "http://localhost:8080")  // and no setenv: parallel tests unaffected
        }
    }
    // doc-end

    // doc: files
    func cacheThumbnail(_ data: Data, named name: String) throws {
        let caches = FileSystem.current.url(for: .caches)  // was: FileManager.default.urls(for: .cachesDirectory, …)
        try FileSystem.current.write(data, to: caches.appendingPathComponent(name))  // was: data.write(to:)
    }

    @Test func thumbnailsAreCached() throws {
        try withInjected(FileSystem.inMemory()) {  // or FileSystem.sandbox(): a temporary directory per scope
            try cacheThumbnail(Data([1, 2, 3]), named: "a.png")
            let cached = FileSystem.current.url(for: .caches).appendingPathComponent("a.png")
            #expect(FileSystem.current.contents(atPath: cached.path) == Data([1, 2, 3]))
        }
    }
    // doc-end

    // doc: notifications
    func syncFinished() {
        Notifications.current.post(name: .init("SyncFinished"))  // was: NotificationCenter.default.post(…)
    }

    @Test func syncAnnouncesItself() async {
        await withInjected(Notifications.isolated()) { () async in  // a center of this test's own
            let (posts, continuation) = AsyncStream.makeStream(of: Notification.Name.self)
            let token = Notifications.current.addObserver(forName: .init("SyncFinished")) {
                continuation.yield($0.name)
            }
            syncFinished()  // observers run synchronously, on the posting thread
            continuation.finish()
            Notifications.current.removeObserver(token)
            #expect(await posts.reduce(into: []) { $0.append($1) } == [.init("SyncFinished")])
        }
    }
    // doc-end

    // doc: network
    func fetchGreeting() async throws -> String {
        let url = URL(string: "https://api.example.com/hello")!
        let (data, _) = try await NetworkSession.current.data(from: url)  // was: URLSession.shared.data(from:)
        return String(decoding: data, as: UTF8.self)
    }

    @Test func theGreetingIsFetched() async throws {
        let stub = NetworkSession.stub([.get("https://api.example.com/hello", body: "hi")])
        try await withInjected(stub) { () async throws in
            #expect(try await fetchGreeting() == "hi")
        }
        #expect(stub.requests.count == 1)  // any other request would have failed this test
    }
    // doc-end

    // doc: main-queue
    @MainActor final class Banner {
        var isVisible = false

        func flash() {
            isVisible = true
            MainQueue.current.asyncAfter(deadline: .now() + 5) { self.isVisible = false }  // was: DispatchQueue.main
        }
    }

    @MainActor @Test func theBannerHidesAfterFiveSeconds() async {
        let testClock = TestClock()
        let banner = Banner()
        withInjected(MainQueue.driven(by: testClock)) { banner.flash() }
        await testClock.advance(by: .seconds(4.9))
        #expect(banner.isVisible)
        await testClock.advance(by: .seconds(0.1))  // the work has run when this returns
        #expect(!banner.isVisible)
    }
    // doc-end
}
