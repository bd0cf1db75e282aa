// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientTesting
import Foundation
import ShadowedSingletons
import Testing

/// What legacy code keeps from an accessor in a property, in an object made once before any
/// test (`DraftStore.shared`), follows the test that uses it: its defaults, file manager,
/// notification center, process info, main queue and date formatter are each the running
/// test's, in 50 parallel tests with 50 different fakes.
@Suite
struct StoredSingletonsTests {
    static let store = DraftStore.shared  // made here, outside every test's scope

    @Test(arguments: 0..<50)
    func aDefaultsKeptInAPropertyWritesTheRunningTestsStore(_ index: Int) {
        let defaults = Defaults.inMemory()
        let notifications = Notifications.isolated()
        let posted = Delivered<String>()
        let token = notifications.addObserver(forName: Notification.Name("draftSaved")) {
            posted.record($0.name.rawValue)
        }
        defer { notifications.removeObserver(token) }
        withInjected(defaults, notifications) {
            Self.store.saveDraft("draft \(index)")
            #expect(Self.store.draft == "draft \(index)")
        }
        #expect(defaults.snapshot == ["draft": .string("draft \(index)")])
        #expect(posted.all == ["draftSaved"])
    }

    @Test(arguments: 0..<50)
    func aFormatterKeptInAPropertyFormatsInTheRunningTestsRegion(_ index: Int) {
        let zones = ["Asia/Tokyo", "Europe/Berlin", "America/New_York", "Pacific/Auckland", "UTC"]
        let zone = TimeZone(identifier: zones[index % zones.count])!
        let noon = Date(timeIntervalSince1970: 43_200)
        let expected = {
            let formatter = Foundation.DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = zone
            formatter.dateFormat = "yyyy-MM-dd HH:mm"
            return formatter.string(from: noon)
        }()
        withInjected(Region.fixed(locale: Locale(identifier: "en_US_POSIX"), timeZone: zone)) {
            #expect(Self.store.stamp(noon) == expected)
            // A time zone the module set itself stays set.
            #expect(Self.store.utcStamp(noon) == "12:00")
        }
    }

    @Test func aFileManagerKeptInAPropertyTouchesTheInjectedFileSystem() throws {
        let real = FileManager.default.temporaryDirectory.appendingPathComponent("stored-\(UUID()).log")
        try Data("real".utf8).write(to: real)
        defer { try? FileManager.default.removeItem(at: real) }
        let files = FileSystem.inMemory()
        try files.createDirectory(atPath: real.deletingLastPathComponent().path, withIntermediateDirectories: true)
        #expect(files.createFile(atPath: real.path, contents: Data("fake".utf8)))
        try withInjected(files) { try Self.store.deleteLog(atPath: real.path) }
        #expect(!files.fileExists(atPath: real.path))
        #expect(FileManager.default.fileExists(atPath: real.path))
    }

    @Test func aProcessInfoKeptInAPropertyReadsTheInjectedEnvironment() {
        withInjected(ProcessEnvironment(variables: ["MODE": "test"])) {
            #expect(Self.store.mode == "test")
        }
        #expect(Self.store.mode == ProcessInfo.processInfo.environment["MODE"])
    }

    @Test func aMainQueueKeptInAPropertySubmitsToTheDrivenQueue() async {
        let testClock = TestClock()
        let ran = Delivered<Bool>()
        withInjected(MainQueue.driven(by: testClock)) {
            Self.store.onMain { ran.record(true) }
        }
        await testClock.run()
        #expect(ran.all == [true])
    }
}
