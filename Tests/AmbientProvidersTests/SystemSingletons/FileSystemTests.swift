// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation
import Testing

@Suite("FileSystem: live, sandbox, in memory")
struct FileSystemTests {
    /// Legacy code, ported by one word: `FileManager.default` → `FileSystem.current`.
    func cacheThumbnail(_ data: Data, named name: String) throws -> URL {
        let url = FileSystem.current.url(for: .caches).appendingPathComponent(name)
        try FileSystem.current.write(data, to: url)
        return url
    }

    @Test func theLiveValueIsFileManagerDefault() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ambient-live-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        try FileSystem.current.write(Data("live".utf8), to: url)
        #expect(FileManager.default.contents(atPath: url.path) == Data("live".utf8))
        #expect(FileSystem.current.description == "FileSystem.live")
        #expect(FileSystem.current.temporaryDirectory.path == FileManager.default.temporaryDirectory.path)
    }

    @Test func urlsForInAnswersAsFileManagerLiveAndTheContainerLayoutInTests() throws {
        for domain: FileManager.SearchPathDomainMask in [.userDomainMask, .localDomainMask] {
            for directory: FileManager.SearchPathDirectory in [
                .cachesDirectory, .documentDirectory, .applicationSupportDirectory, .desktopDirectory,
            ] {
                #expect(
                    FileSystem.current.urls(for: directory, in: domain)
                        == FileManager.default.urls(for: directory, in: domain))
            }
        }
        withInjected(FileSystem.inMemory()) {
            #expect(
                FileSystem.current.urls(for: .cachesDirectory, in: .userDomainMask).map(\.path) == ["/Library/Caches"])
            #expect(FileSystem.current.urls(for: .documentDirectory, in: .userDomainMask).map(\.path) == ["/Documents"])
            #expect(
                FileSystem.current.urls(for: .applicationSupportDirectory, in: .userDomainMask).map(\.path)
                    == ["/Library/Application Support"])
            #expect(FileSystem.current.urls(for: .desktopDirectory, in: .userDomainMask).isEmpty)
        }
        let sandbox = try FileSystem.sandbox()
        let root = sandbox.url(for: .home).path
        withInjected(sandbox) {
            #expect(
                FileSystem.current.urls(for: .cachesDirectory, in: .userDomainMask).map(\.path)
                    == [URL(fileURLWithPath: root).appendingPathComponent("Library/Caches").path])
            #expect(FileSystem.current.url(for: .caches).path.hasPrefix(root))
        }
    }

    @Test func inMemoryTouchesNoDisk() throws {
        try withInjected(FileSystem.inMemory()) {
            let url = try cacheThumbnail(Data([1, 2, 3]), named: "a.png")
            #expect(url.path == "/Library/Caches/a.png")
            #expect(FileSystem.current.contents(atPath: url.path) == Data([1, 2, 3]))
            #expect(!FileManager.default.fileExists(atPath: url.path))
            #expect(try FileSystem.current.contentsOfDirectory(atPath: "/Library/Caches") == ["a.png"])
            let attributes = try FileSystem.current.attributesOfItem(atPath: url.path)
            #expect(attributes[.size] as? UInt64 == 3)
            #expect(attributes[.type] as? FileAttributeType == .typeRegular)
            #expect(attributes[.modificationDate] is Date)
        }
    }

    /// The live file system's attributes are `FileManager`'s dictionary itself: legacy code's
    /// `attributes[.size] as! UInt64` reads it unchanged.
    @Test func liveAttributesAreFileManagersDictionary() throws {
        let path = NSTemporaryDirectory() + "ambient-attributes-\(UUID()).txt"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("abc".utf8)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let ours = try FileSystem.live.attributesOfItem(atPath: path)
        let theirs = try FileManager.default.attributesOfItem(atPath: path)
        #expect(Set(ours.keys) == Set(theirs.keys))
        #expect(ours[.size] as! UInt64 == 3)
        #expect(ours[.type] as? FileAttributeType == theirs[.type] as? FileAttributeType)
        #expect(ours[.modificationDate] as? Date == theirs[.modificationDate] as? Date)
    }

    /// The attributes legacy code passes (`.posixPermissions`) reach `FileManager` on the live
    /// file system and in a sandbox; a memory store takes the call and keeps none.
    @Test func createFileAndDirectoryTakeFileManagersAttributes() throws {
        let sandbox = try FileSystem.sandbox()
        try sandbox.createDirectory(
            atPath: "logs", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        #expect(
            sandbox.createFile(atPath: "logs/app.log", contents: Data("x".utf8), attributes: [.posixPermissions: 0o600])
        )
        #expect(try sandbox.attributesOfItem(atPath: "logs/app.log")[.posixPermissions] as? Int == 0o600)
        #expect(try sandbox.attributesOfItem(atPath: "logs")[.posixPermissions] as? Int == 0o700)
        let memory = FileSystem.inMemory()
        #expect(memory.createFile(atPath: "/tmp/app.log", contents: nil, attributes: [.posixPermissions: 0o600]))
        #expect(memory.fileExists(atPath: "/tmp/app.log"))
    }

    @Test func inMemoryErrorsAreFileManagersCocoaErrors() throws {
        let memory = FileSystem.inMemory()
        #expect(throws: CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "/nope"])) {
            try memory.removeItem(atPath: "/nope")
        }
        try memory.createDirectory(atPath: "/d")
        #expect {
            try memory.createDirectory(atPath: "/d")
        } throws: { ($0 as? CocoaError)?.code == .fileWriteFileExists }
        #expect {
            try memory.contents(of: URL(fileURLWithPath: "/missing"))
        } throws: { ($0 as? CocoaError)?.code == .fileReadNoSuchFile }
        // `..` of a file is an error, as the kernel resolves it, not a no-op.
        memory.createFile(atPath: "/f", contents: Data())
        #expect(!memory.fileExists(atPath: "/f/../f"))
        #expect(memory.fileExists(atPath: "/d/../f"))
    }

    @Test func aSandboxIsAFreshDirectoryRemovedWhenTheScopeEnds() throws {
        var root = ""
        try withInjected(try FileSystem.sandbox()) {
            root = FileSystem.current.url(for: .home).path
            let url = try cacheThumbnail(Data("x".utf8), named: "t.png")
            #expect(url.path == root + "/Library/Caches/t.png")
            #expect(FileManager.default.contents(atPath: url.path) == Data("x".utf8))
            // Relative paths start at the root.
            #expect(FileSystem.current.fileExists(atPath: "Library/Caches/t.png"))
            #expect(FileSystem.current.fileExists(atPath: FileSystem.current.temporaryDirectory.path))
        }
        #expect(root.contains("ambient-sandbox-"))
        #expect(!FileManager.default.fileExists(atPath: root))
    }

    @Test func parallelSandboxesNeverSeeEachOthersFiles() async throws {
        let roots = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<16 {
                group.addTask {
                    try withInjected(try FileSystem.sandbox()) {
                        let caches = FileSystem.current.url(for: .caches)
                        try FileSystem.current.write(Data("\(index)".utf8), to: caches.appendingPathComponent("mine"))
                        #expect(try FileSystem.current.contentsOfDirectory(atPath: caches.path) == ["mine"])
                        #expect(FileSystem.current.contents(atPath: caches.path + "/mine") == Data("\(index)".utf8))
                        return caches.path
                    }
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(roots.count == 16)
    }

    /// A directory outside the sandbox, with a file in it, that no call may touch.
    struct Outside {
        let directory: String
        let file: String
        init() throws {
            directory = FileManager.default.temporaryDirectory.path + "/ambient-outside-" + UUID().uuidString
            file = directory + "/precious"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: file, contents: Data("keep".utf8))
        }
        func isUntouched() throws -> Bool {
            try FileManager.default.contentsOfDirectory(atPath: directory) == ["precious"]
                && FileManager.default.contents(atPath: file) == Data("keep".utf8)
        }
        func remove() { try? FileManager.default.removeItem(atPath: directory) }
    }

    @Test func pathsThatLeaveTheSandboxThrowAndTouchNothing() throws {
        let outside = try Outside()
        defer { outside.remove() }
        let sandbox = try FileSystem.sandbox()
        let root = sandbox.url(for: .home).path
        // The route from the root to the outside directory by `..`.
        let depth = root.split(separator: "/").count
        let upAndOver = String(repeating: "../", count: depth) + outside.directory.dropFirst()
        try FileManager.default.createSymbolicLink(atPath: root + "/out", withDestinationPath: outside.directory)
        try FileManager.default.createSymbolicLink(atPath: root + "/relative-out", withDestinationPath: "../")
        try FileManager.default.createSymbolicLink(
            atPath: root + "/dangling", withDestinationPath: outside.directory + "/new-file")
        try FileManager.default.createSymbolicLink(atPath: root + "/loop", withDestinationPath: root + "/loop")
        try FileManager.default.createSymbolicLink(atPath: root + "/inside", withDestinationPath: root + "/Documents")

        let attempts: [(String, FileSystem.SandboxEscape.Reason, () throws -> Void)] = [
            (outside.file, .outsideRoot, { try sandbox.removeItem(atPath: outside.file) }),
            (upAndOver + "/precious", .parentOfRoot, { try sandbox.removeItem(atPath: upAndOver + "/precious") }),
            ("Documents/../../x", .parentOfRoot, { try sandbox.createDirectory(atPath: "Documents/../../x") }),
            (
                "root/Documents/../../x", .parentOfRoot,
                { try sandbox.write(Data("x".utf8), to: URL(fileURLWithPath: root + "/Documents/../../x")) }
            ),
            (
                "out/precious", .symbolicLink(outside.directory),
                { try sandbox.write(Data(), to: URL(fileURLWithPath: root + "/out/precious")) }
            ),
            ("out", .symbolicLink(outside.directory), { try sandbox.removeItem(atPath: root + "/out/precious") }),
            (
                "relative-out", .symbolicLink("../"),
                { try sandbox.createDirectory(atPath: root + "/relative-out/escaped") }
            ),
            (
                "dangling", .symbolicLink(outside.directory + "/new-file"),
                { try sandbox.write(Data("x".utf8), to: URL(fileURLWithPath: root + "/dangling")) }
            ),
            (
                "move out", .outsideRoot,
                { try sandbox.moveItem(atPath: "Documents", toPath: outside.directory + "/moved") }
            ),
            ("copy in", .outsideRoot, { try sandbox.copyItem(atPath: outside.file, toPath: "Documents/stolen") }),
            ("loop", .tooManyLinks, { _ = try sandbox.contentsOfDirectory(atPath: "loop") }),
            // A `..` after a link goes up from the link's target, as the kernel walks it: out.
            (
                "out/../escaped", .symbolicLink(outside.directory),
                { try sandbox.write(Data("x".utf8), to: URL(fileURLWithPath: root + "/out/../escaped")) }
            ),
            (
                "relative out/../escaped", .symbolicLink(outside.directory),
                { try sandbox.createDirectory(atPath: "out/../escaped") }
            ),
        ]
        for (label, reason, attempt) in attempts {
            #expect(throws: FileSystem.SandboxEscape.self, "\(label)") { try attempt() }
            do { try attempt() } catch let escape as FileSystem.SandboxEscape {
                #expect(escape.reason == reason, "\(label)")
                #expect(escape.description.contains("Nothing was touched"))
            } catch {
                Issue.record("\(label): \(error)")
            }
        }
        // A link that stays inside is followed.
        try sandbox.write(Data("in".utf8), to: URL(fileURLWithPath: root + "/inside/note"))
        #expect(FileManager.default.contents(atPath: root + "/Documents/note") == Data("in".utf8))
        #expect(try outside.isUntouched())
        #expect(!FileManager.default.fileExists(atPath: outside.directory + "/new-file"))
        #expect(!FileManager.default.fileExists(atPath: outside.directory + "/moved"))
        let outsideParent = URL(fileURLWithPath: outside.directory).deletingLastPathComponent().path
        #expect(!FileManager.default.fileExists(atPath: outsideParent + "/escaped"))
    }

    @Test func theCallsThatCannotThrowReportAnEscapeAndAnswerNothing() throws {
        let outside = try Outside()
        defer { outside.remove() }
        let reports = Reports()
        let sandboxLine = #line + 1
        let sandbox = try FileSystem.sandbox()
        withInjected(reports.reporter) {
            #expect(!sandbox.fileExists(atPath: outside.file))
            #expect(sandbox.contents(atPath: outside.file) == nil)
            #expect(!sandbox.createFile(atPath: outside.file, contents: Data("overwritten".utf8)))
        }
        #expect(reports.messages.count == 3)
        #expect(reports.lines == [sandboxLine, sandboxLine, sandboxLine])
        #expect(reports.messages.allSatisfy { $0.contains("leaves the sandbox") })
        #expect(try outside.isUntouched())
    }
}
