// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation
import Testing

@testable import ShadowedSingletons

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A ported module's own tests, written as they were before the port: `@testable import`, and
/// the system's names in the test code. With the test-target file beside them they compile
/// unedited, and each name is the system's (a test's `Date()` is the real time even where the
/// module's reads an injected clock).
@Suite
struct LegacyModuleTests {
    @Test func everySystemNameCompilesUnqualifiedAndQualified() throws {
        let stamp = Date()
        let later = Date(timeIntervalSinceNow: 60)
        #expect(later.timeIntervalSinceNow > 59)
        #expect(Date.now >= stamp)
        #expect(Foundation.Date() >= stamp)
        #expect(UUID() != UUID())
        #expect(Foundation.Locale.current.identifier == Locale.current.identifier)
        _ = (Locale.autoupdatingCurrent, TimeZone.current, TimeZone.autoupdatingCurrent)
        _ = (Calendar.current, Calendar.autoupdatingCurrent, Foundation.Calendar.current)
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy"
        #expect(formatter.string(from: Date(timeIntervalSince1970: 0)).count == 4)
        #expect(NumberFormatter().string(from: 3) == "3")
        #expect(ProcessInfo.processInfo.environment["PATH"] != nil)
        UserDefaults.standard.removeObject(forKey: "LegacyModuleTests.unused")
        _ = (NotificationCenter.default, URLSession.shared, OperationQueue.main, Thread.isMainThread)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("legacy-\(UUID()).txt")
        try Data("abc".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try Data(contentsOf: url) == Data("abc".utf8))
        #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? UInt64 == 3)
        let queue = DispatchQueue(label: "legacy.tests")
        #expect(queue.sync { 42 } == 42)
        dispatchPrecondition(condition: .notOnQueue(queue))
        let group = DispatchGroup()
        group.enter()
        group.notify(queue: .global()) {}
        group.notify(queue: .main) {}
        group.notify(qos: .utility, flags: [], queue: .global()) {}
        group.leave()
        _ = Timer(timeInterval: 1, repeats: false) { _ in }
        queue.async {}
        queue.asyncAfter(deadline: .now() + 1) {}
        #expect(queue.sync(flags: .barrier) { 1 } == 1)
        let item = DispatchWorkItem {}
        item.notify(queue: .global()) {}
        queue.async(execute: item)
        let timer: DispatchSourceTimer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + 60)
        timer.setEventHandler {}
        timer.resume()
        timer.cancel()
        RunLoop.main.perform {}
        print("legacy test", 1, separator: ":")
        NSLog("legacy test %d", 2)
    }

    @Test func theSystemsNamesAreTheSystems() {
        #expect(type(of: UserDefaults.standard) == Foundation.UserDefaults.self)
        #expect(type(of: FileManager.default) == Foundation.FileManager.self)
        #expect(type(of: DispatchQueue(label: "q")) == Dispatch.DispatchQueue.self)
        #expect(type(of: DispatchQueue.main) == Dispatch.DispatchQueue.self)
        #expect(type(of: OperationQueue.main) == Foundation.OperationQueue.self)
        #expect(type(of: DateFormatter()) == Foundation.DateFormatter.self)
        #expect(type(of: Thread {}) == Foundation.Thread.self)
    }

    /// The module reads what the test injected; the test's own code reads the system's.
    @Test func theModuleReadsTheInjectionTheTestDoesNot() {
        let noon = Date(timeIntervalSince1970: 43_200)
        let id = UUID(uuidString: "00000000-0000-0000-0000-00000000002A")!
        withInjected(Clock.fixed(noon), UUIDGenerator.constant(id), Region.posixUTC) {
            #expect(currentDate() == noon)
            #expect(newIdentifier() == id)
            #expect(Date() != noon)
            #expect(UUID() != id)
            #expect(TimeZone.current == SystemSingletons.timeZone)
        }
    }

    /// The module's internal names are reachable, as `@testable import` promises.
    @Test func theModulesInternalsAreVisible() {
        let counter = Counter(label: "legacy.counter")
        counter.increment()
        #expect(counter.value == 1)
    }
}
