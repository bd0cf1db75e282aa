// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation
import Testing

struct NotAPropertyList {}

@Suite("Defaults")
struct DefaultsTests {
    func makeWidget() -> String {
        (Defaults.current.string(forKey: "defaultColour") ?? "") + "Widget"
    }

    func nextReminderId() -> Int {
        let id = Defaults.current.integer(forKey: "currentReminderId") + 1
        Defaults.current.set(id, forKey: "currentReminderId")
        return id
    }

    @Test func theSeedExamplesWorkAgainstAnInMemoryStore() {
        let defaults = Defaults.inMemory(["defaultColour": "Red"])
        withInjected(defaults) {
            #expect(makeWidget() == "RedWidget")
            #expect(nextReminderId() == 1)
            #expect(nextReminderId() == 2)
        }
        #expect(defaults.snapshot == ["defaultColour": "Red", "currentReminderId": 2])
    }

    @Test func readsTheUserDefaultsSurface() throws {
        let defaults = Defaults.inMemory([
            "s": "text", "i": 42, "d": 2.5, "b": true, "data": .data(Data([1, 2])),
            "date": .date(Date(timeIntervalSince1970: 5)), "list": ["a", "b"], "map": ["k": 1],
            "numeric": "17", "url": "https://example.com/a",
        ])
        #expect(defaults.string(forKey: "s") == "text")
        #expect(defaults.integer(forKey: "i") == 42)
        #expect(defaults.double(forKey: "d") == 2.5)
        #expect(defaults.bool(forKey: "b"))
        #expect(defaults.data(forKey: "data") == Data([1, 2]))
        #expect(defaults.object(forKey: "date") as? Date == Date(timeIntervalSince1970: 5))
        #expect(defaults.array(forKey: "list") as? [String] == ["a", "b"])
        #expect(defaults.stringArray(forKey: "list") == ["a", "b"])
        #expect(defaults.dictionary(forKey: "map")?["k"] as? Int == 1)
        #expect(defaults.integer(forKey: "numeric") == 17)
        #expect(defaults.string(forKey: "i") == "42")
        #expect(defaults.url(forKey: "url") == URL(string: "https://example.com/a"))
    }

    @Test func readingTheWrongTypeGivesNilOrZeroNeverACrash() {
        let defaults = Defaults.inMemory(["s": "text", "list": [1, 2], "data": .data(Data([9]))])
        #expect(defaults.integer(forKey: "s") == 0)
        #expect(defaults.double(forKey: "list") == 0)
        #expect(!defaults.bool(forKey: "data"))
        #expect(defaults.data(forKey: "s") == nil)
        #expect(defaults.url(forKey: "data") == nil)
        #expect(defaults.stringArray(forKey: "list") == nil)
        #expect(defaults.dictionary(forKey: "s") == nil)
        #expect(defaults.string(forKey: "missing") == nil)
        #expect(defaults.url(forKey: "missing") == nil)
        #expect(defaults.stringArray(forKey: "data") == nil)
    }

    @Test func writesAndRemoves() throws {
        let defaults = Defaults.inMemory()
        defaults.set("a", forKey: "s")
        defaults.set(1, forKey: "i")
        defaults.set(1.5, forKey: "d")
        defaults.set(false, forKey: "b")
        defaults.set(Data([3]), forKey: "data")
        defaults.set(Date(timeIntervalSince1970: 1), forKey: "date")
        defaults.set(URL(string: "https://x.org")!, forKey: "url")
        defaults.set(["x", 1, ["nested": true]] as [Any], forKey: "mixed")
        #expect(
            defaults.snapshot.filter { $0.key != "url" } == [
                "s": "a", "i": 1, "d": 1.5, "b": false, "data": .data(Data([3])),
                "date": .date(Date(timeIntervalSince1970: 1)), "mixed": ["x", 1, ["nested": true]],
            ])
        // A URL is stored as an archived NSURL, as UserDefaults writes it, and reads back whole.
        #expect(defaults.data(forKey: "url") != nil)
        #expect(defaults.url(forKey: "url") == URL(string: "https://x.org"))
        defaults.removeObject(forKey: "s")
        defaults.set(nil, forKey: "i")
        #expect(defaults.snapshot["s"] == nil)
        #expect(defaults.snapshot["i"] == nil)
    }

    @Test func storingANonPropertyListThrowsAndChangesNothing() {
        let defaults = Defaults.inMemory(["kept": "yes"])
        #expect(throws: Defaults.InvalidValue(key: "bad", type: "NotAPropertyList")) {
            try defaults.set(checking: NotAPropertyList(), forKey: "bad")
        }
        #expect(throws: Defaults.InvalidValue.self) {
            try defaults.set(checking: ["fine", NotAPropertyList()] as [Any], forKey: "kept")
        }
        #expect(throws: Defaults.InvalidValue.self) {
            try defaults.set(checking: [1: "integer keys"] as [Int: String], forKey: "kept")
        }
        #expect(defaults.snapshot == ["kept": "yes"])
        let message = Defaults.InvalidValue(key: "bad", type: "NotAPropertyList").description
        #expect(
            message.contains("NotAPropertyList") && message.contains("\"bad\"")
                && message.contains("Nothing was written"))
    }

    @Test func registeredDefaultsShowThroughButAreNotStored() throws {
        let defaults = Defaults.inMemory()
        defaults.register(defaults: ["volume": 7, "name": "guest"])
        #expect(defaults.integer(forKey: "volume") == 7)
        defaults.set(3, forKey: "volume")
        #expect(defaults.integer(forKey: "volume") == 3)
        defaults.removeObject(forKey: "volume")
        #expect(defaults.integer(forKey: "volume") == 7)
        #expect(defaults.snapshot.isEmpty)
        #expect(throws: Defaults.InvalidValue.self) {
            try defaults.register(checking: ["ok": 1, "bad": NotAPropertyList()])
        }
        #expect(defaults.integer(forKey: "ok") == 0)  // nothing registered
    }

    @Test func everyTypedSetterReadsBackThroughItsGetter() {
        let defaults = Defaults.inMemory()
        let date = Date(timeIntervalSince1970: 99)
        defaults.set(5, forKey: "i")
        defaults.set(0.25, forKey: "d")
        defaults.set(Float(1.5), forKey: "f")
        defaults.set(true, forKey: "b")
        defaults.set("x", forKey: "s")
        defaults.set(Data([7]), forKey: "data")
        defaults.set(date, forKey: "date")
        defaults.set(URL(string: "https://a.b")!, forKey: "url")
        defaults.set(["a", "b"] as PropertyList, forKey: "list")
        defaults.set(["on": true] as [String: Any], forKey: "map")

        #expect(defaults.integer(forKey: "i") == 5)
        #expect(defaults.double(forKey: "d") == 0.25)
        #expect(defaults.float(forKey: "f") == 1.5)
        #expect(defaults.bool(forKey: "b"))
        #expect(defaults.string(forKey: "s") == "x")
        #expect(defaults.data(forKey: "data") == Data([7]))
        #expect(defaults.object(forKey: "date") as? Date == date)
        #expect(defaults.url(forKey: "url") == URL(string: "https://a.b"))
        #expect(defaults.stringArray(forKey: "list") == ["a", "b"])
        #expect(defaults.dictionary(forKey: "map")?["on"] as? Bool == true)
        defaults.set(nil as URL?, forKey: "url")
        #expect(defaults.url(forKey: "url") == nil)
        #expect(defaults.snapshot["url"] == nil)
    }

    /// Many threads writing and reading one store at once, in memory and live: no write is
    /// lost, and each thread reads back what it wrote. (Linux's `UserDefaults` alone fails
    /// this: a key written on one thread while another writes reads back as missing.)
    @Test func concurrentWritesFromManyThreadsAreAllKept() {
        let threads = 8
        let writes = 2_000
        let suiteName = "ambient.tests.concurrent.\(UUID())"
        defer { UserDefaults(suiteName: suiteName)?.removePersistentDomain(forName: suiteName) }
        for defaults in [Defaults.inMemory(), Defaults.suite(suiteName)!] {
            let misreads = Locked(0)
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                for write in 1...writes {
                    defaults.set(write, forKey: "thread \(thread)")
                    if defaults.integer(forKey: "thread \(thread)") != write { misreads.withLock { $0 += 1 } }
                }
            }
            #expect(misreads.get() == 0, "\(defaults): a thread read back other than it wrote")
            let keys = (0..<threads).map { "thread \($0)" }
            let last = Dictionary(uniqueKeysWithValues: keys.map { ($0, PropertyList.integer(writes)) })
            #expect(defaults.snapshot == last, "\(defaults)")
        }
    }

    @Test func inMemoryStoresAreIsolated() {
        let first = Defaults.inMemory()
        let second = Defaults.inMemory()
        first.set("one", forKey: "k")
        #expect(second.string(forKey: "k") == nil)
        withInjected(second) { #expect(Defaults.current.string(forKey: "k") == nil) }
    }

    @Test func inMemoryStoresDescribeTheirSize() {
        #expect(Defaults.inMemory(["a": 1]).description == "Defaults.inMemory(1 key)")
        #expect(Defaults.inMemory(["a": 1, "b": 2]).description == "Defaults.inMemory(2 keys)")
    }

    @Test func theLiveStoreIsUserDefaults() throws {
        let key = "ambient.tests.live.\(UUID())"
        defer { UserDefaults.standard.removeObject(forKey: key) }
        // `defaultValue`, not `current`: the documentation's snippets run a process-wide
        // scope injecting Defaults, which every test running meanwhile would see.
        let live = Defaults.defaultValue
        #expect(live.description == "Defaults.standard")
        live.set("written through Ambient", forKey: key)
        #expect(UserDefaults.standard.string(forKey: key) == "written through Ambient")
        UserDefaults.standard.set(12, forKey: key)
        #expect(live.integer(forKey: key) == 12)
    }

    @Test func aSuiteIsANamedUserDefaults() throws {
        let name = "ambient.tests.suite.\(UUID())"
        let suite = try #require(Defaults.suite(name))
        defer { UserDefaults(suiteName: name)?.removePersistentDomain(forName: name) }
        suite.set(["a": 1] as PropertyList, forKey: "map")
        #expect(UserDefaults(suiteName: name)?.dictionary(forKey: "map")?["a"] as? Int == 1)
        #expect(suite.snapshot["map"] == ["a": 1])
        #expect(suite.description == "Defaults.suite(\"\(name)\")")
    }
}
