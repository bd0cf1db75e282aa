// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: the three file systems (the real one, a sandbox in a temporary directory, a store in
// memory) answer the same calls; `FileSystem` holds one of them behind this protocol.

/// Whether an item is a file or a directory (symbolic links are followed).
enum ItemKind: Sendable, Hashable {
    /// A regular file (or anything that is not a directory).
    case file
    /// A directory.
    case directory
}

/// What a ``FileSystem`` does: `FileManager`'s calls, with `FileManager`'s errors
/// (`CocoaError` and its codes), on paths as the caller gave them.
protocol FileSystemBackend: Sendable {
    func itemKind(atPath path: String) -> ItemKind?
    func contents(atPath path: String) -> Data?
    func createFile(atPath path: String, contents: Data?, attributes: [FileAttributeKey: Any]?) -> Bool
    func createDirectory(
        atPath path: String, withIntermediateDirectories: Bool, attributes: [FileAttributeKey: Any]?) throws
    func removeItem(atPath path: String) throws
    func moveItem(atPath source: String, toPath destination: String) throws
    func copyItem(atPath source: String, toPath destination: String) throws
    func contentsOfDirectory(atPath path: String) throws -> [String]
    func attributesOfItem(atPath path: String) throws -> [FileAttributeKey: Any]
    func read(atPath path: String) throws -> Data
    func write(_ data: Data, toPath path: String, withoutOverwriting: Bool) throws
    func url(for directory: FileSystem.Directory) -> URL
    var name: String { get }
}
