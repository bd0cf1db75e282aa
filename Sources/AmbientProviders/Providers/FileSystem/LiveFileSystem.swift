// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: the live file system is `FileManager.default` and `Data`'s own reading and writing,
// called exactly as legacy code called them.

/// `FileManager.default`, paths as given.
struct LiveFileSystem: FileSystemBackend {
    var name: String { "FileSystem.live" }

    func itemKind(atPath path: String) -> ItemKind? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        return isDirectory.boolValue ? .directory : .file
    }

    func contents(atPath path: String) -> Data? {
        FileManager.default.contents(atPath: path)
    }

    func createFile(atPath path: String, contents: Data?, attributes: [FileAttributeKey: Any]?) -> Bool {
        FileManager.default.createFile(atPath: path, contents: contents, attributes: attributes)
    }

    func createDirectory(
        atPath path: String, withIntermediateDirectories: Bool, attributes: [FileAttributeKey: Any]?
    ) throws {
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: withIntermediateDirectories, attributes: attributes)
    }

    func removeItem(atPath path: String) throws {
        try FileManager.default.removeItem(atPath: path)
    }

    func moveItem(atPath source: String, toPath destination: String) throws {
        try FileManager.default.moveItem(atPath: source, toPath: destination)
    }

    func copyItem(atPath source: String, toPath destination: String) throws {
        try FileManager.default.copyItem(atPath: source, toPath: destination)
    }

    func contentsOfDirectory(atPath path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path)
    }

    func attributesOfItem(atPath path: String) throws -> [FileAttributeKey: Any] {
        try FileManager.default.attributesOfItem(atPath: path)
    }

    func read(atPath path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    func write(_ data: Data, toPath path: String, withoutOverwriting: Bool) throws {
        try data.write(to: URL(fileURLWithPath: path), options: withoutOverwriting ? .withoutOverwriting : [])
    }

    func url(for directory: FileSystem.Directory) -> URL {
        switch directory {
        case .temporary:
            return FileManager.default.temporaryDirectory
        case .home:
            return URL(fileURLWithPath: NSHomeDirectory(), isDirectory: true)
        case .caches, .documents, .applicationSupport:
            let searchPath: FileManager.SearchPathDirectory =
                directory == .caches
                ? .cachesDirectory : directory == .documents ? .documentDirectory : .applicationSupportDirectory
            return FileManager.default.urls(for: searchPath, in: .userDomainMask).first
                ?? URL(fileURLWithPath: NSHomeDirectory(), isDirectory: true).appendingPathComponent(
                    directory.relativePath, isDirectory: true)
        }
    }
}
