// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: a file system in memory is the fastest test form and touches no disk at all; it
// answers every call with the result and the `CocoaError` code the real `FileManager`
// gives on Linux (the differential test in FileSystemDifferentialTests holds it to that).

/// A tree of directories and files held in memory, paths resolved as the kernel resolves
/// them (`..` of a file is an error, not a no-op).
final class InMemoryFileSystem: FileSystemBackend {
    private enum Node {
        case directory(children: Set<String>, modified: Date)
        case file(Data, modified: Date)

        var kind: ItemKind {
            if case .directory = self { return .directory }
            return .file
        }
    }

    /// Where a path leads.
    private enum Resolution {
        /// An item, at this standardized path.
        case found(String, Node)
        /// Nothing, but the parent (this path's parent, standardized) is a directory.
        case missing(String, parent: String, name: String)
        /// A directory on the way does not exist (`ENOENT`).
        case missingAncestor
        /// A file on the way (`ENOTDIR`).
        case fileOnTheWay
    }

    private let nodes: Locked<[String: Node]>

    init() {
        var nodes: [String: Node] = ["/": .directory(children: [], modified: Date())]
        for directory in FileSystem.Directory.allCases where directory != .home {
            Self.makeDirectories(directory.relativePath.split(separator: "/").map(String.init), in: &nodes)
        }
        self.nodes = Locked(nodes)
    }

    var name: String { "FileSystem.inMemory" }

    private static func makeDirectories(_ components: [String], in nodes: inout [String: Node]) {
        var path = "/"
        for component in components {
            let child = join(path, component)
            if nodes[child] == nil {
                nodes[child] = .directory(children: [], modified: Date())
                addChild(component, to: path, in: &nodes)
            }
            path = child
        }
    }

    private static func join(_ parent: String, _ name: String) -> String {
        parent == "/" ? "/" + name : parent + "/" + name
    }

    private static func addChild(_ name: String, to parent: String, in nodes: inout [String: Node]) {
        guard case .directory(var children, _) = nodes[parent] else { return }
        children.insert(name)
        nodes[parent] = .directory(children: children, modified: Date())
    }

    private static func removeChild(_ name: String, from parent: String, in nodes: inout [String: Node]) {
        guard case .directory(var children, _) = nodes[parent] else { return }
        children.remove(name)
        nodes[parent] = .directory(children: children, modified: Date())
    }

    /// Resolves `path` (relative paths from `/`) component by component.
    private static func resolve(_ path: String, in nodes: [String: Node]) -> Resolution {
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        var current = "/"
        for (index, component) in components.enumerated() {
            guard case .directory = nodes[current] else { return .fileOnTheWay }
            if component == "." { continue }
            if component == ".." {
                if current != "/" { current = parent(of: current) }
                continue
            }
            let child = join(current, String(component))
            if nodes[child] == nil {
                let isLast = components[(index + 1)...].allSatisfy { $0 == "." }
                return isLast ? .missing(child, parent: current, name: String(component)) : .missingAncestor
            }
            current = child
        }
        return .found(current, nodes[current]!)
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    private static func name(of path: String) -> String {
        String(path[path.index(after: path.lastIndex(of: "/")!)...])
    }

    /// What `FileManager.attributesOfItem(atPath:)` reports that a memory store has: its type,
    /// its size as `FileManager`'s (an `NSNumber` of a `UInt64`), its modification date.
    private static func attributes(_ type: FileAttributeType, size: Int, modified: Date) -> [FileAttributeKey: Any] {
        [.type: type, .size: NSNumber(value: UInt64(size)), .modificationDate: modified]
    }

    private static func error(_ code: CocoaError.Code, _ path: String) -> CocoaError {
        CocoaError(code, userInfo: [NSFilePathErrorKey: path])
    }

    func itemKind(atPath path: String) -> ItemKind? {
        nodes.withLock { nodes in
            guard case .found(_, let node) = Self.resolve(path, in: nodes) else { return nil }
            return node.kind
        }
    }

    func contents(atPath path: String) -> Data? {
        nodes.withLock { nodes in
            guard case .found(_, .file(let data, _)) = Self.resolve(path, in: nodes) else { return nil }
            return data
        }
    }

    /// The attributes are not kept: a memory store has no owners or permissions.
    func createFile(atPath path: String, contents: Data?, attributes: [FileAttributeKey: Any]?) -> Bool {
        nodes.withLock { nodes in
            switch Self.resolve(path, in: nodes) {
            case .found(let found, .file):
                nodes[found] = .file(contents ?? Data(), modified: Date())
                return true
            case .missing(let child, let parent, let name):
                nodes[child] = .file(contents ?? Data(), modified: Date())
                Self.addChild(name, to: parent, in: &nodes)
                return true
            case .found(_, .directory), .missingAncestor, .fileOnTheWay:
                return false
            }
        }
    }

    func createDirectory(
        atPath path: String, withIntermediateDirectories: Bool, attributes: [FileAttributeKey: Any]?
    ) throws {
        try nodes.withLock { nodes throws(CocoaError) in
            try Self.makeDirectory(path, intermediates: withIntermediateDirectories, in: &nodes)
        }
    }

    /// `createDirectory(atPath:withIntermediateDirectories:)` on `nodes`.
    private static func makeDirectory(
        _ path: String, intermediates: Bool, in nodes: inout [String: Node]
    ) throws(CocoaError) {
        switch resolve(path, in: nodes) {
        case .found(_, .directory) where intermediates:
            return
        case .found:
            throw error(.fileWriteFileExists, path)
        case .fileOnTheWay:
            throw error(.fileWriteUnknown, path)
        case .missing(let child, let parent, let name):
            nodes[child] = .directory(children: [], modified: Date())
            addChild(name, to: parent, in: &nodes)
        case .missingAncestor:
            guard intermediates else { throw error(.fileNoSuchFile, path) }
            // Create each missing directory in turn; a file on the way stops it.
            var prefix = path.hasPrefix("/") ? "/" : ""
            for component in path.split(separator: "/", omittingEmptySubsequences: true) {
                prefix = prefix.isEmpty || prefix.hasSuffix("/") ? prefix + component : prefix + "/" + component
                switch resolve(prefix, in: nodes) {
                case .found(_, .directory):
                    continue
                case .missing(let child, let parent, let name):
                    nodes[child] = .directory(children: [], modified: Date())
                    addChild(name, to: parent, in: &nodes)
                case .found(_, .file), .fileOnTheWay:
                    throw error(.fileWriteUnknown, path)
                case .missingAncestor:
                    throw error(.fileNoSuchFile, path)
                }
            }
        }
    }

    func removeItem(atPath path: String) throws {
        try nodes.withLock { nodes throws(CocoaError) in
            switch Self.resolve(path, in: nodes) {
            case .found(let found, _):
                guard found != "/" else { throw Self.error(.fileWriteNoPermission, path) }
                Self.removeTree(found, from: &nodes)
                Self.removeChild(Self.name(of: found), from: Self.parent(of: found), in: &nodes)
            case .missing, .missingAncestor:
                throw Self.error(.fileNoSuchFile, path)
            case .fileOnTheWay:
                throw Self.error(.fileWriteUnknown, path)
            }
        }
    }

    private static func removeTree(_ path: String, from nodes: inout [String: Node]) {
        if case .directory(let children, _) = nodes[path] {
            for child in children { removeTree(join(path, child), from: &nodes) }
        }
        nodes[path] = nil
    }

    /// The tree at `path`, as paths relative to it (`""` for itself) and nodes.
    private static func subtree(_ path: String, in nodes: [String: Node]) -> [(String, Node)] {
        guard let node = nodes[path] else { return [] }
        var result: [(String, Node)] = [("", node)]
        if case .directory(let children, _) = node {
            for child in children.sorted() {
                for (relative, descendant) in subtree(join(path, child), in: nodes) {
                    result.append((relative.isEmpty ? child : child + "/" + relative, descendant))
                }
            }
        }
        return result
    }

    func moveItem(atPath source: String, toPath destination: String) throws {
        try nodes.withLock { nodes throws(CocoaError) in
            // FileManager checks the destination first, then renames (rename(2)'s order:
            // the source's directories, the destination's, the source itself).
            if case .found = Self.resolve(destination, in: nodes) {
                throw Self.error(.fileWriteFileExists, destination)
            }
            let from = Self.resolve(source, in: nodes)
            if case .fileOnTheWay = from { throw Self.error(.fileWriteUnknown, source) }
            if case .missingAncestor = from { throw Self.error(.fileNoSuchFile, source) }
            let to = Self.resolve(destination, in: nodes)
            guard case .missing(let target, let targetParent, let targetName) = to else {
                if case .fileOnTheWay = to { throw Self.error(.fileWriteUnknown, destination) }
                throw Self.error(.fileNoSuchFile, destination)
            }
            guard case .found(let found, _) = from else { throw Self.error(.fileNoSuchFile, source) }
            guard found != "/", !target.hasPrefix(found == "/" ? "/" : found + "/") else {
                throw Self.error(.fileWriteUnknown, destination)
            }
            let moved = Self.subtree(found, in: nodes)
            Self.removeTree(found, from: &nodes)
            Self.removeChild(Self.name(of: found), from: Self.parent(of: found), in: &nodes)
            for (relative, node) in moved {
                nodes[relative.isEmpty ? target : target + "/" + relative] = node
            }
            Self.addChild(targetName, to: targetParent, in: &nodes)
        }
    }

    func copyItem(atPath source: String, toPath destination: String) throws {
        try nodes.withLock { nodes throws(CocoaError) in
            // FileManager reads the source first. A file is copied to a destination that
            // must not exist; a directory is merged into the destination, made with its
            // intermediate directories, item by item (an existing file stops it there).
            let found: String
            let node: Node
            switch Self.resolve(source, in: nodes) {
            case .found(let path, let item): (found, node) = (path, item)
            case .missing, .missingAncestor: throw Self.error(.fileReadNoSuchFile, source)
            case .fileOnTheWay: throw Self.error(.fileReadUnknown, source)
            }
            guard case .directory = node else {
                try Self.copyFile(node, to: destination, in: &nodes)
                return
            }
            // The source as it was before the copy began.
            let copied = Self.subtree(found, in: nodes)
            for (relative, item) in copied {
                let path = relative.isEmpty ? destination : destination + "/" + relative
                if case .directory = item {
                    try Self.makeDirectory(path, intermediates: true, in: &nodes)
                } else {
                    try Self.copyFile(item, to: path, in: &nodes)
                }
            }
        }
    }

    private static func copyFile(
        _ node: Node, to destination: String, in nodes: inout [String: Node]
    ) throws(CocoaError) {
        guard case .file(let data, _) = node else { return }
        switch resolve(destination, in: nodes) {
        case .found: throw error(.fileWriteFileExists, destination)
        case .missingAncestor: throw error(.fileNoSuchFile, destination)
        case .fileOnTheWay: throw error(.fileWriteUnknown, destination)
        case .missing(let target, let parent, let name):
            nodes[target] = .file(data, modified: Date())
            addChild(name, to: parent, in: &nodes)
        }
    }

    func contentsOfDirectory(atPath path: String) throws -> [String] {
        try nodes.withLock { nodes throws(CocoaError) in
            switch Self.resolve(path, in: nodes) {
            case .found(_, .directory(let children, _)): return children.sorted()
            case .found(_, .file), .fileOnTheWay: throw Self.error(.fileReadUnknown, path)
            case .missing, .missingAncestor: throw Self.error(.fileReadNoSuchFile, path)
            }
        }
    }

    func attributesOfItem(atPath path: String) throws -> [FileAttributeKey: Any] {
        try nodes.withLock { nodes throws(CocoaError) in
            switch Self.resolve(path, in: nodes) {
            case .found(_, .directory(let children, let modified)):
                return Self.attributes(.typeDirectory, size: children.count, modified: modified)
            case .found(_, .file(let data, let modified)):
                return Self.attributes(.typeRegular, size: data.count, modified: modified)
            case .fileOnTheWay: throw Self.error(.fileReadUnknown, path)
            case .missing, .missingAncestor: throw Self.error(.fileReadNoSuchFile, path)
            }
        }
    }

    func read(atPath path: String) throws -> Data {
        try nodes.withLock { nodes throws(CocoaError) in
            switch Self.resolve(path, in: nodes) {
            case .found(_, .file(let data, _)): return data
            case .found(_, .directory), .fileOnTheWay: throw Self.error(.fileReadUnknown, path)
            case .missing, .missingAncestor: throw Self.error(.fileReadNoSuchFile, path)
            }
        }
    }

    func write(_ data: Data, toPath path: String, withoutOverwriting: Bool) throws {
        try nodes.withLock { nodes throws(CocoaError) in
            switch Self.resolve(path, in: nodes) {
            case .found(let found, .file):
                guard !withoutOverwriting else { throw Self.error(.fileWriteFileExists, path) }
                nodes[found] = .file(data, modified: Date())
            case .found(_, .directory):
                throw Self.error(withoutOverwriting ? .fileWriteFileExists : .fileWriteUnknown, path)
            case .fileOnTheWay:
                throw Self.error(.fileWriteUnknown, path)
            case .missingAncestor:
                throw Self.error(.fileNoSuchFile, path)
            case .missing(let child, let parent, let name):
                nodes[child] = .file(data, modified: Date())
                Self.addChild(name, to: parent, in: &nodes)
            }
        }
    }

    func url(for directory: FileSystem.Directory) -> URL {
        URL(fileURLWithPath: directory == .home ? "/" : "/" + directory.relativePath, isDirectory: true)
    }
}
