// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: legacy code reads and writes through `FileManager.default` and `Data(contentsOf:)`,
// so its tests share one disk with every parallel test and with the developer's own files.
// The same calls on an ambient value go to the real disk, a sandbox per test, or memory.

/// The ambient file system: the `FileManager` calls legacy code makes, and `Data`'s reading
/// and writing. Use it where code used `FileManager.default`.
///
/// ```swift
/// func cacheThumbnail(_ data: Data, named name: String) throws {
///     let caches = FileSystem.current.url(for: .caches)
///     try FileSystem.current.write(data, to: caches.appendingPathComponent(name))
/// }
///
/// // Nothing touches the disk:
/// try withInjected(FileSystem.inMemory()) {
///     try cacheThumbnail(Data([1, 2, 3]), named: "a.png")
///     #expect(FileSystem.current.fileExists(atPath: FileSystem.current.url(for: .caches).path + "/a.png"))
/// }
/// ```
///
/// | form | where files go | errors |
/// |---|---|---|
/// | ``live`` (the default) | `FileManager.default` | `FileManager`'s |
/// | ``sandbox(fileID:filePath:line:column:)`` | a fresh temporary directory, removed when the last copy of the value goes | `FileManager`'s; ``SandboxEscape`` for a path that leaves it |
/// | ``inMemory()`` | memory | the `CocoaError` codes `FileManager` gives on Linux |
///
/// Results and errors are `FileManager`'s: the same `Bool`s and `nil`s, and the same
/// `CocoaError` codes (`.fileNoSuchFile`, `.fileWriteFileExists`, …), so `catch` clauses
/// keep working.
public struct FileSystem: AmbientValue, CustomStringConvertible {
    /// The standard directories apps write to. A sandbox and a memory store lay them out
    /// under their root as an app's container does, on every platform: `<root>/Library/Caches`,
    /// `<root>/Documents`, `<root>/Library/Application Support`, `<root>/tmp`; the root is
    /// the home directory. The live file system answers what `FileManager` answers (on
    /// Linux, `~/.cache` for caches, for one).
    public enum Directory: Sendable, Hashable, CaseIterable {
        /// Caches (`.cachesDirectory`).
        case caches
        /// Documents (`.documentDirectory`).
        case documents
        /// Application Support (`.applicationSupportDirectory`).
        case applicationSupport
        /// The temporary directory (`FileManager.default.temporaryDirectory`).
        case temporary
        /// The home directory (`NSHomeDirectory()`); the root of a sandbox or memory store.
        case home

        /// Where it lies under a home directory, as apps' containers lay it out.
        var relativePath: String {
            switch self {
            case .caches: "Library/Caches"
            case .documents: "Documents"
            case .applicationSupport: "Library/Application Support"
            case .temporary: "tmp"
            case .home: ""
            }
        }
    }

    /// A path that leaves a ``FileSystem/sandbox(fileID:filePath:line:column:)``: nothing was read or written.
    public struct SandboxEscape: Error, Hashable, CustomStringConvertible {
        /// How the path would have left.
        public enum Reason: Sendable, Hashable {
            /// An absolute path that does not start with the sandbox's root (as written: a
            /// path that only reaches it through `..` counts as outside).
            case outsideRoot
            /// A `..` above the root.
            case parentOfRoot
            /// A symbolic link (its destination) pointing outside.
            case symbolicLink(String)
            /// More than 40 symbolic links in a row (a loop).
            case tooManyLinks
        }

        /// The path as given.
        public let path: String
        /// The sandbox's root.
        public let root: String
        /// How it would have left.
        public let reason: Reason

        /// Names the path, the root and the reason.
        public var description: String {
            let how: String
            switch reason {
            case .outsideRoot: how = "it is outside the sandbox"
            case .parentOfRoot: how = "its '..' goes above the sandbox's root"
            case .symbolicLink(let target): how = "a symbolic link on the way points outside it (to \(target))"
            case .tooManyLinks: how = "it follows more than 40 symbolic links"
            }
            return "FileSystem.sandbox: the path '\(path)' leaves the sandbox at \(root): \(how). Nothing was touched."
        }
    }

    /// A sandbox's or a memory store's backend, or `.live` for the live file system (so a
    /// never-injected read copies no existential; ``LiveOr`` says why not an optional).
    @usableFromInline
    let state: LiveOr<Box>

    /// One reference to a backend other than the live one.
    @usableFromInline
    final class Box: Sendable {
        let backend: any FileSystemBackend
        init(_ backend: any FileSystemBackend) {
            self.backend = backend
        }
    }

    @inlinable
    init(box: Box?) {
        state = LiveOr(box)
    }

    private init(backend: any FileSystemBackend) {
        state = .object(Box(backend))
    }

    private init(following: Void) {
        state = .following
    }

    private var backend: any FileSystemBackend {
        ownBackend ?? LiveFileSystem()
    }

    /// A sandbox's or a memory store's backend (the current one's, for ``followingCurrent``);
    /// `nil` where calls go to the real disk as `FileManager` makes them.
    private var ownBackend: (any FileSystemBackend)? {
        let backend = state.resolved(following: FileSystem.current.state)?.backend
        if _slowPath(RunningTest.isLoaded), state.isFollowing, backend != nil {
            _ = StaticInitialiserReads.report("FileManager.default", of: FileSystem.self, keepsLive: false)
        }
        return backend
    }

    /// `FileManager.default`.
    public static let live = FileSystem(box: nil)

    /// The file system ``AmbientValue/current`` is wherever this value is used, not where it was taken:
    /// each call reads ``AmbientValue/current`` first. What the one-file port's `FileManager.default` is,
    /// so that a file manager kept in a property (`let files = FileManager.default`, made
    /// before a test's scope) works on the file system the running test injected.
    ///
    /// ```swift
    /// final class LogStore {
    ///     let files = FileSystem.followingCurrent          // kept: still follows each test
    ///     func clear() throws { try files.removeItem(atPath: "app.log") }
    /// }
    /// ```
    ///
    /// Injected itself, it is the live file system.
    public static let followingCurrent = FileSystem(following: ())

    /// The live file system, built in place (inlinable: no lazy global's check).
    @inlinable
    public static var defaultValue: FileSystem {
        FileSystem(box: nil)
    }

    /// The real file system inside a new temporary directory, with the standard
    /// directories (``Directory``) made inside it. Relative paths start at its root;
    /// absolute paths must lie inside it. A path that leaves it — `..` above the root, an
    /// absolute path elsewhere, a symbolic link pointing out — throws ``SandboxEscape``
    /// (the calls that cannot throw report it through ``IssueReporter``, failing the test
    /// at the line that made the sandbox, and answer `false` or `nil`) and touches nothing.
    ///
    /// The directory is removed when the last copy of this value is released: when the
    /// scope that injected it ends, if nothing else keeps it.
    ///
    /// ```swift
    /// try withInjected(FileSystem.sandbox()) { … }
    /// @Test(.injecting(fresh: { try FileSystem.sandbox() }))   // AmbientTesting: one per test
    /// ```
    ///
    /// Paths are checked before `FileManager` sees them; a test that swaps a directory for a
    /// symbolic link while a call runs is not guarded against.
    ///
    /// The location parameters name the test's line in a report; leave their defaults.
    public static func sandbox(
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) throws -> FileSystem {
        let location = IssueReporter.Location(fileID: fileID, filePath: filePath, line: line, column: column)
        return FileSystem(backend: try SandboxFileSystem(reportingAt: location))
    }

    /// A file system in memory, empty but for the standard directories (``Directory``)
    /// under `/`. Nothing touches the disk; copies of the value share the store.
    public static func inMemory() -> FileSystem {
        FileSystem(backend: InMemoryFileSystem())
    }

    /// Which file system this is (a sandbox names its root).
    public var description: String {
        state.isFollowing ? "FileSystem.followingCurrent" : backend.name
    }

    // MARK: - Directories

    /// A standard directory's URL in this file system.
    public func url(for directory: Directory) -> URL {
        backend.url(for: directory)
    }

    /// `FileManager.urls(for:in:)`, so a ported call keeps its spelling: the live file system
    /// asks `FileManager`; a sandbox or a memory store answers the directories it keeps
    /// (`.cachesDirectory`, `.documentDirectory`, `.applicationSupportDirectory`: see
    /// ``Directory`` for where each lies under its root) for any domain, and `[]` for any
    /// other directory, as `FileManager` answers for a directory a platform lacks.
    ///
    /// ```swift
    /// let caches = FileSystem.current.urls(for: .cachesDirectory, in: .userDomainMask).first!
    /// ```
    public func urls(
        for directory: FileManager.SearchPathDirectory, in domain: FileManager.SearchPathDomainMask
    ) -> [URL] {
        guard let backend = ownBackend else { return FileManager.default.urls(for: directory, in: domain) }
        switch directory {
        case .cachesDirectory: return [backend.url(for: .caches)]
        case .documentDirectory: return [backend.url(for: .documents)]
        case .applicationSupportDirectory: return [backend.url(for: .applicationSupport)]
        default: return []
        }
    }

    /// `FileManager.default.temporaryDirectory`, in this file system.
    public var temporaryDirectory: URL {
        backend.url(for: .temporary)
    }

    // MARK: - Questions

    /// `FileManager.fileExists(atPath:)`.
    public func fileExists(atPath path: String) -> Bool {
        backend.itemKind(atPath: path) != nil
    }

    /// `FileManager.fileExists(atPath:isDirectory:)`, with a plain `Bool`.
    public func fileExists(atPath path: String, isDirectory: inout Bool) -> Bool {
        guard let kind = backend.itemKind(atPath: path) else { return false }
        isDirectory = kind == .directory
        return true
    }

    /// A file's contents, or `nil` when there is no readable file: `FileManager.contents(atPath:)`.
    public func contents(atPath path: String) -> Data? {
        backend.contents(atPath: path)
    }

    /// The names in a directory (not sorted, as `FileManager` gives them):
    /// `FileManager.contentsOfDirectory(atPath:)`.
    public func contentsOfDirectory(atPath path: String) throws -> [String] {
        try backend.contentsOfDirectory(atPath: path)
    }

    /// The URLs of the items in a directory: `FileManager.contentsOfDirectory(at:includingPropertiesForKeys:)`
    /// without its options.
    public func contentsOfDirectory(at url: URL) throws -> [URL] {
        try backend.contentsOfDirectory(atPath: url.path).map { url.appendingPathComponent($0) }
    }

    /// An item's attributes, as `FileManager.attributesOfItem(atPath:)` returns them: the live
    /// file system (and a sandbox) returns `FileManager`'s own dictionary; the in-memory one
    /// `.type` (`FileAttributeType.typeRegular` or `.typeDirectory`), `.size` (an `NSNumber`
    /// holding a `UInt64`, so `attributes[.size] as! UInt64` reads it as it does
    /// `FileManager`'s) and `.modificationDate`.
    ///
    /// ```swift
    /// let size = try FileSystem.current.attributesOfItem(atPath: path)[.size] as! UInt64
    /// ```
    public func attributesOfItem(atPath path: String) throws -> [FileAttributeKey: Any] {
        try backend.attributesOfItem(atPath: path)
    }

    // MARK: - Changes

    /// Creates or replaces a file; `false` when it cannot (no parent directory, a directory
    /// there): `FileManager.createFile(atPath:contents:attributes:)`. The attributes
    /// (`.posixPermissions`, …) are `FileManager`'s to apply on the live file system and in a
    /// sandbox; a memory store does not keep them.
    @discardableResult
    public func createFile(
        atPath path: String, contents: Data? = nil, attributes: [FileAttributeKey: Any]? = nil
    ) -> Bool {
        backend.createFile(atPath: path, contents: contents, attributes: attributes)
    }

    /// `FileManager.createDirectory(atPath:withIntermediateDirectories:attributes:)` (the
    /// attributes as for ``createFile(atPath:contents:attributes:)``).
    public func createDirectory(
        atPath path: String, withIntermediateDirectories: Bool = false, attributes: [FileAttributeKey: Any]? = nil
    ) throws {
        try backend.createDirectory(
            atPath: path, withIntermediateDirectories: withIntermediateDirectories, attributes: attributes)
    }

    /// `FileManager.createDirectory(at:withIntermediateDirectories:attributes:)` (the attributes
    /// as for ``createFile(atPath:contents:attributes:)``).
    public func createDirectory(
        at url: URL, withIntermediateDirectories: Bool = false, attributes: [FileAttributeKey: Any]? = nil
    ) throws {
        try backend.createDirectory(
            atPath: url.path, withIntermediateDirectories: withIntermediateDirectories, attributes: attributes)
    }

    /// Removes a file or a directory with everything in it: `FileManager.removeItem(atPath:)`.
    public func removeItem(atPath path: String) throws {
        try backend.removeItem(atPath: path)
    }

    /// `FileManager.removeItem(at:)`.
    public func removeItem(at url: URL) throws {
        try backend.removeItem(atPath: url.path)
    }

    /// `FileManager.moveItem(atPath:toPath:)`: the destination must not exist.
    public func moveItem(atPath source: String, toPath destination: String) throws {
        try backend.moveItem(atPath: source, toPath: destination)
    }

    /// `FileManager.moveItem(at:to:)`.
    public func moveItem(at source: URL, to destination: URL) throws {
        try backend.moveItem(atPath: source.path, toPath: destination.path)
    }

    /// `FileManager.copyItem(atPath:toPath:)`: the destination must not exist.
    public func copyItem(atPath source: String, toPath destination: String) throws {
        try backend.copyItem(atPath: source, toPath: destination)
    }

    /// `FileManager.copyItem(at:to:)`.
    public func copyItem(at source: URL, to destination: URL) throws {
        try backend.copyItem(atPath: source.path, toPath: destination.path)
    }

    // MARK: - Data

    /// A file's contents: `Data(contentsOf:)` for a file URL (the live file system reads any
    /// URL, as `Data(contentsOf:)` does).
    public func contents(of url: URL) throws -> Data {
        guard let backend = ownBackend else { return try Data(contentsOf: url) }
        return try backend.read(atPath: url.path)
    }

    /// Writes `data` to a file URL: `data.write(to:options:)`. The live file system writes
    /// with every option, as `Data` does; in a sandbox and in memory only `.withoutOverwriting`
    /// changes anything (it throws `.fileWriteFileExists` when something is there), and every
    /// write replaces the file whole.
    public func write(_ data: Data, to url: URL, options: Data.WritingOptions = []) throws {
        guard let backend = ownBackend else { return try data.write(to: url, options: options) }
        try backend.write(data, toPath: url.path, withoutOverwriting: options.contains(.withoutOverwriting))
    }
}
