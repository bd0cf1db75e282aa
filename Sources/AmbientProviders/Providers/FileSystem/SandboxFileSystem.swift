// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: a test that writes files needs a directory of its own, removed afterwards, and the
// certainty that nothing it does reaches a file outside: every path is checked, symbolic
// links included, before the real `FileManager` sees it.

/// The real file system, confined to a fresh temporary directory that is removed when the
/// last `FileSystem` holding it goes away.
final class SandboxFileSystem: FileSystemBackend {
    /// The root as created (its URL is what ``FileSystem/url(for:)`` builds on).
    let root: String
    /// The root with its symbolic links resolved (`/private/var/…` on Apple platforms).
    private let realRoot: String

    /// Where a report of an escaping path points: the line that made the sandbox.
    private let location: IssueReporter.Location

    init(reportingAt location: IssueReporter.Location) throws {
        self.location = location
        let base = FileManager.default.temporaryDirectory.path
        let root = (base.hasSuffix("/") ? base : base + "/") + "ambient-sandbox-" + UUID().uuidString
        for directory in FileSystem.Directory.allCases where directory != .home {
            try FileManager.default.createDirectory(
                atPath: root + "/" + directory.relativePath, withIntermediateDirectories: true)
        }
        self.root = root
        self.realRoot = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }

    var name: String { "FileSystem.sandbox(\(root))" }

    /// The path to hand to `FileManager`: `path` itself when it is absolute, else `path` under
    /// the root, once every step of it, symbolic links followed, is known to stay inside.
    func confine(_ path: String) throws(FileSystem.SandboxEscape) -> String {
        let relative: String
        if path.hasPrefix("/") {
            // The path as written must start with the root: what follows is then walked as
            // the kernel would walk it (a `..` after a link goes up from the link's target),
            // never a tidied-up version of it. `/tmp/x/../sandbox/…` is refused outright.
            if let inside = Self.relative(path, to: root) ?? Self.relative(path, to: realRoot) {
                relative = inside
            } else {
                throw FileSystem.SandboxEscape(path: path, root: root, reason: .outsideRoot)
            }
        } else {
            relative = path
        }
        var resolved: [Substring] = []
        var linksLeft = 40
        try walk(relative, resolved: &resolved, linksLeft: &linksLeft, original: path)
        return path.hasPrefix("/") ? path : root + "/" + path
    }

    /// Follows `relative` component by component from the real root (`..` included, symbolic
    /// links read and followed), throwing as soon as a step would leave the root.
    private func walk(
        _ relative: String, resolved: inout [Substring], linksLeft: inout Int, original: String
    ) throws(FileSystem.SandboxEscape) {
        for component in relative.split(separator: "/", omittingEmptySubsequences: true) {
            if component == "." { continue }
            if component == ".." {
                guard !resolved.isEmpty else {
                    throw FileSystem.SandboxEscape(path: original, root: root, reason: .parentOfRoot)
                }
                resolved.removeLast()
                continue
            }
            resolved.append(component)
            let full = realRoot + "/" + resolved.joined(separator: "/")
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: full) else { continue }
            linksLeft -= 1
            guard linksLeft > 0 else {
                throw FileSystem.SandboxEscape(path: original, root: root, reason: .tooManyLinks)
            }
            resolved.removeLast()
            if target.hasPrefix("/") {
                let standardized = Self.lexicallyStandardized(target)
                guard let inside = Self.relative(standardized, to: realRoot) ?? Self.relative(standardized, to: root)
                else {
                    throw FileSystem.SandboxEscape(path: original, root: root, reason: .symbolicLink(target))
                }
                resolved = []
                try walk(inside, resolved: &resolved, linksLeft: &linksLeft, original: original)
            } else {
                do {
                    try walk(target, resolved: &resolved, linksLeft: &linksLeft, original: original)
                } catch let escape where escape.reason == .parentOfRoot {
                    throw FileSystem.SandboxEscape(path: original, root: root, reason: .symbolicLink(target))
                }
            }
        }
    }

    /// `path` with `.` and `..` removed by text alone (`/a/b/../c` is `/a/c`).
    static func lexicallyStandardized(_ path: String) -> String {
        var components: [Substring] = []
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            if component == "." { continue }
            if component == ".." {
                if !components.isEmpty { components.removeLast() }
                continue
            }
            components.append(component)
        }
        return "/" + components.joined(separator: "/")
    }

    /// `path` below `base` (empty for `base` itself), or `nil` when it is not inside it.
    private static func relative(_ path: String, to base: String) -> String? {
        if path == base { return "" }
        let prefix = base.hasSuffix("/") ? base : base + "/"
        guard path.hasPrefix(prefix) else { return nil }
        return String(path.dropFirst(prefix.count))
    }

    private let live = LiveFileSystem()

    func itemKind(atPath path: String) -> ItemKind? {
        guard let confined = confinedOrReported(path) else { return nil }
        return live.itemKind(atPath: confined)
    }

    func contents(atPath path: String) -> Data? {
        guard let confined = confinedOrReported(path) else { return nil }
        return live.contents(atPath: confined)
    }

    func createFile(atPath path: String, contents: Data?, attributes: [FileAttributeKey: Any]?) -> Bool {
        guard let confined = confinedOrReported(path) else { return false }
        return live.createFile(atPath: confined, contents: contents, attributes: attributes)
    }

    func createDirectory(
        atPath path: String, withIntermediateDirectories: Bool, attributes: [FileAttributeKey: Any]?
    ) throws {
        try live.createDirectory(
            atPath: confine(path), withIntermediateDirectories: withIntermediateDirectories, attributes: attributes)
    }

    func removeItem(atPath path: String) throws {
        try live.removeItem(atPath: confine(path))
    }

    func moveItem(atPath source: String, toPath destination: String) throws {
        try live.moveItem(atPath: confine(source), toPath: confine(destination))
    }

    func copyItem(atPath source: String, toPath destination: String) throws {
        try live.copyItem(atPath: confine(source), toPath: confine(destination))
    }

    func contentsOfDirectory(atPath path: String) throws -> [String] {
        try live.contentsOfDirectory(atPath: confine(path))
    }

    func attributesOfItem(atPath path: String) throws -> [FileAttributeKey: Any] {
        try live.attributesOfItem(atPath: confine(path))
    }

    func read(atPath path: String) throws -> Data {
        try live.read(atPath: confine(path))
    }

    func write(_ data: Data, toPath path: String, withoutOverwriting: Bool) throws {
        try live.write(data, toPath: confine(path), withoutOverwriting: withoutOverwriting)
    }

    func url(for directory: FileSystem.Directory) -> URL {
        let path = directory == .home ? root : root + "/" + directory.relativePath
        return URL(fileURLWithPath: path, isDirectory: true)
    }

    /// For the calls that cannot throw (`fileExists`, `contents`, `createFile`): an escaping
    /// path is reported through ``IssueReporter`` (it fails the running test) and answered
    /// as "nothing there".
    private func confinedOrReported(_ path: String) -> String? {
        do {
            return try confine(path)
        } catch {
            IssueReporter.current.report(error.description, at: location)
            return nil
        }
    }
}
