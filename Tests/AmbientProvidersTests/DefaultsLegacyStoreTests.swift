// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation
import Testing

/// The cases that differed from both Linux's and Darwin's `UserDefaults`, each as it failed,
/// and stores written by one side read by the other.
@Suite("Defaults and UserDefaults share a store")
struct DefaultsLegacyStoreTests {
    /// A fresh `UserDefaults` suite and `Defaults` over the same suite, removed afterwards.
    func sharedSuite() throws -> (legacy: UserDefaults, defaults: Defaults, cleanUp: () -> Void) {
        let name = "ambient.legacy.\(UUID().uuidString)"
        let legacy = try #require(UserDefaults(suiteName: name))
        let defaults = try #require(Defaults.suite(name))
        return (legacy, defaults, { legacy.removePersistentDomain(forName: name) })
    }

    @Test func aPathStringReadsAsAFileURLWithTheTildeExpanded() {
        let defaults = Defaults.inMemory(["home": "~/Documents/x", "absolute": "/a/b", "empty": ""])
        #expect(defaults.url(forKey: "home") == URL(fileURLWithPath: NSHomeDirectory() + "/Documents/x"))
        #expect(defaults.url(forKey: "absolute") == URL(fileURLWithPath: "/a/b"))
        #expect(defaults.url(forKey: "absolute")?.isFileURL == true)  // was URL(string:): relative, not a file URL
        #expect(defaults.url(forKey: "empty") == URL(fileURLWithPath: ""))  // was nil
    }

    @Test func aURLLegacyCodeStoredReadsBackAsThatURL() throws {
        let (legacy, defaults, cleanUp) = try sharedSuite()
        defer { cleanUp() }
        legacy.set(URL(fileURLWithPath: "/a/b"), forKey: "file")
        #expect(defaults.url(forKey: "file") == URL(fileURLWithPath: "/a/b"))  // was a non-file URL
        #expect(defaults.url(forKey: "file")?.isFileURL == true)
    }

    @Test func anArchivedURLReadsBackAsThatURL() throws {
        // What Darwin's `UserDefaults.set(_ url:forKey:)` stores: the NSURL as the root object
        // of a keyed archive. Built here with NSKeyedArchiver (as corelibs can), both with and
        // without secure coding, and with a home-relative path as Apple documents it.
        let web = URL(string: "https://example.com/a?b=1#c")!
        let insecure = try NSKeyedArchiver.archivedData(withRootObject: web as NSURL, requiringSecureCoding: false)
        let secure = try NSKeyedArchiver.archivedData(withRootObject: web as NSURL, requiringSecureCoding: true)
        let home = try NSKeyedArchiver.archivedData(
            withRootObject: NSURL(fileURLWithPath: "~/Library/x"), requiringSecureCoding: false)
        let defaults = Defaults.inMemory(["insecure": .data(insecure), "secure": .data(secure), "home": .data(home)])
        #expect(defaults.url(forKey: "insecure") == web)
        #expect(defaults.url(forKey: "secure") == web)
        #expect(defaults.url(forKey: "home") == URL(fileURLWithPath: NSHomeDirectory() + "/Library/x"))
    }

    @Test func aURLDefaultsStoresIsTheArchiveUserDefaultsReads() throws {
        let (legacy, defaults, cleanUp) = try sharedSuite()
        defer { cleanUp() }
        let web = URL(string: "https://example.com/x?y=1")!
        defaults.set(web, forKey: "web")
        defaults.set(URL(fileURLWithPath: "/tmp/a b"), forKey: "file")
        #expect(legacy.url(forKey: "web") == web)
        #expect(legacy.url(forKey: "file") == URL(fileURLWithPath: "/tmp/a b"))
        // The stored form is a keyed archive of an NSURL, as on Apple platforms.
        let stored = try #require(legacy.data(forKey: "web"))
        let archive = try #require(
            try PropertyListSerialization.propertyList(from: stored, format: nil) as? [String: Any])
        #expect(archive["$archiver"] as? String == "NSKeyedArchiver")
        let objects = try #require(archive["$objects"] as? [Any])
        #expect(objects.contains { ($0 as? String) == web.absoluteString })
        #expect(objects.contains { (($0 as? [String: Any])?["$classname"] as? String) == "NSURL" })
    }

    @Test func dataThatIsNoURLArchiveReadsAsNoURLAndNeverStops() {
        var generator = Generator(seed: 7)
        for length in 0..<200 {
            let bytes = Data((0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
            #expect(Defaults.inMemory(["k": .data(bytes)]).url(forKey: "k") == nil)
        }
        // A property list that is no archive, and an archive of something else.
        let plist = try! PropertyListSerialization.data(fromPropertyList: ["a": 1], format: .binary, options: 0)
        let notURL = try! NSKeyedArchiver.archivedData(withRootObject: "text" as NSString, requiringSecureCoding: true)
        #expect(Defaults.inMemory(["k": .data(plist)]).url(forKey: "k") == nil)
        #expect(Defaults.inMemory(["k": .data(notURL)]).url(forKey: "k") == nil)
    }

    @Test func registeringAURLRegistersItAndKeepsEveryOtherDefault() throws {
        let defaults = Defaults.inMemory()
        let web = URL(string: "https://example.com")!
        defaults.register(defaults: ["endpoint": web, "retries": 3, "name": "x"])  // was: nothing registered
        #expect(defaults.url(forKey: "endpoint") == web)
        #expect(defaults.integer(forKey: "retries") == 3)
        #expect(defaults.string(forKey: "name") == "x")
        try defaults.register(checking: ["file": URL(fileURLWithPath: "/a")])
        #expect(defaults.url(forKey: "file") == URL(fileURLWithPath: "/a"))
        #expect(throws: Defaults.InvalidValue.self) {
            try defaults.register(checking: ["bad": NSObject(), "good": 1])  // all or nothing
        }
        #expect(defaults.object(forKey: "good") == nil)
    }

    @Test func aFloatReadsBackAsUserDefaultsReadsIt() throws {
        let (legacy, defaults, cleanUp) = try sharedSuite()
        defer { cleanUp() }
        defaults.set(Float(12.34), forKey: "mine")
        legacy.set(Float(12.34), forKey: "theirs")
        for key in ["mine", "theirs"] {
            #expect(defaults.string(forKey: key) == "12.34")  // was "12.34000015258789"
            #expect(defaults.float(forKey: key) == Float(12.34))
            #expect(defaults.double(forKey: key) == Double(Float(12.34)))
            #expect(defaults.integer(forKey: key) == 12)
            #expect(legacy.string(forKey: key) == "12.34")
        }
        #expect(Defaults.inMemory(["f": .float(0.1)]).string(forKey: "f") == "0.1")
    }

    /// Every property-list type, as legacy code writes it with `UserDefaults`, and as it
    /// registers it.
    static var legacyValues: [String: Any] {
        [
            "string": "Red", "int": 42, "negative": -7, "double": 2.5, "float": Float(1.25), "bool": true,
            "data": Data([1, 2, 3]), "date": Date(timeIntervalSince1970: 1_700_000_000),
            "array": ["a", 1, true] as [Any], "strings": ["x", "y"],
            "dictionary": ["k": 1, "nested": ["a": "b"]] as [String: Any],
            "unsigned": UInt64(Int.max) + 1, "number": NSNumber(value: Int16(3)),
        ]
    }

    @Test func aSuiteWrittenByUserDefaultsReadsTheSameThroughDefaults() throws {
        let (legacy, defaults, cleanUp) = try sharedSuite()
        defer { cleanUp() }
        for (key, value) in Self.legacyValues { legacy.set(value, forKey: key) }
        legacy.register(defaults: ["registered": "fallback", "registeredURL": URL(fileURLWithPath: "/r")])
        for key in Self.legacyValues.keys {
            #expect(defaults.propertyList(forKey: key) == PropertyList(legacy.object(forKey: key)!), "\(key)")
            #expect(defaults.data(forKey: key) == legacy.data(forKey: key), "\(key)")
            #expect(
                defaults.array(forKey: key).flatMap(PropertyList.init)
                    == legacy.array(forKey: key).flatMap(PropertyList.init))
            #expect(defaults.stringArray(forKey: key) == legacy.stringArray(forKey: key), "\(key)")
            #expect(defaults.float(forKey: key) == legacy.float(forKey: key) || key == "unsigned", "\(key)")
        }
        #expect(defaults.string(forKey: "registered") == "fallback")
        #expect(defaults.string(forKey: "float") == "1.25")
    }

    @Test func aSuiteWrittenByDefaultsReadsTheSameThroughUserDefaults() throws {
        let (legacy, defaults, cleanUp) = try sharedSuite()
        defer { cleanUp() }
        for (key, value) in Self.legacyValues { defaults.set(value, forKey: key) }
        defaults.set(URL(string: "https://example.com/u")!, forKey: "url")
        for key in Self.legacyValues.keys {
            #expect(PropertyList(legacy.object(forKey: key)!) == defaults.propertyList(forKey: key), "\(key)")
        }
        #expect(legacy.string(forKey: "string") == "Red")
        #expect(legacy.integer(forKey: "int") == 42)
        #expect(legacy.float(forKey: "float") == 1.25)
        #expect(legacy.bool(forKey: "bool"))
        #expect(legacy.stringArray(forKey: "strings") == ["x", "y"])
        #expect(legacy.url(forKey: "url") == URL(string: "https://example.com/u"))
    }

    /// A URL legacy code registered on the suite itself (`UserDefaults.register(defaults:)`
    /// keeps the `URL` object there) reads back through every getter that reads a URL: a
    /// module ported by its one added file reads its own registrations through `Defaults`.
    @Test func aURLLegacyCodeRegisteredOnTheSuiteReadsBack() throws {
        let (legacy, defaults, cleanUp) = try sharedSuite()
        defer { cleanUp() }
        let home = URL(string: "https://example.com/home")!
        legacy.register(defaults: ["home": home, "file": URL(fileURLWithPath: "/a/b")])
        #expect(defaults.url(forKey: "home") == home)
        #expect(defaults.url(forKey: "file") == URL(fileURLWithPath: "/a/b"))
        let object = try #require(defaults.object(forKey: "home"))  // was nil
        // Each form is the stored one: copied into another store, it reads back as the URL.
        let asObject = try #require(PropertyList(object))
        #expect(Defaults.inMemory(["home": asObject]).url(forKey: "home") == home)
        #expect(defaults.dictionaryRepresentation()["home"] != nil)
        let asPropertyList = try #require(defaults.propertyList(forKey: "home"))
        #expect(Defaults.inMemory(["home": asPropertyList]).url(forKey: "home") == home)
    }
}
