// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation
import Testing

/// `FileSystem.inMemory()` side by side with the real `FileManager` on a temporary
/// directory: seeded random sequences of every call, over a small set of names so that
/// calls collide (existing destinations, files where directories are expected, missing
/// parents), each result and each error code compared, and the whole tree compared at the
/// end of each sequence.
///
/// What it pins is Linux's `FileManager` (swift-corelibs-foundation), where this runs; two
/// cases are left out of the random calls because the real one's answer is not a rule to
/// copy: copying a directory into itself (Linux copies what it finds while it creates it)
/// and attribute sizes of directories (a block size on disk, an entry count in memory). A
/// sequence stops early, uncompared, after a directory copy that an existing file stopped
/// part way: what was copied before depends on the order the disk lists the directory in
/// (the in-memory store copies in name order).
@Suite("FileSystem.inMemory against FileManager, differentially")
struct FileSystemDifferentialTests {
    /// CI runs this many sequences (a fifth under a sanitizer); `AMBIENT_DIFFERENTIAL_SEQUENCES`
    /// runs more.
    static let sequences =
        ProcessInfo.processInfo.environment["AMBIENT_DIFFERENTIAL_SEQUENCES"].flatMap(Int.init)
        ?? Sanitizers.scaled(3_000)
    static let stepsPerSequence = 14
    static let names = ["a", "b", "c"]

    @Test func randomSequencesAnswerAsFileManagerDoes() throws {
        let realBase = FileManager.default.temporaryDirectory.path + "/ambient-differential-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: realBase) }
        var mismatches: [String] = []
        var comparisons = 0
        var errorsCompared = 0
        var partialCopies = 0
        for seed in 0..<UInt64(Self.sequences) {
            let memory = FileSystem.inMemory()
            let memoryBase = "/differential"
            try memory.createDirectory(atPath: memoryBase)
            try FileManager.default.createDirectory(atPath: realBase, withIntermediateDirectories: true)
            var random = RandomSource.seeded(seed)
            var diverged = false
            for step in 0..<Self.stepsPerSequence {
                let operation = Operation.random(using: &random)
                let copiesADirectory = operation.copiesADirectory(on: .live, base: realBase)
                let real = operation.outcome(on: .live, base: realBase)
                let inMemory = operation.outcome(on: memory, base: memoryBase)
                comparisons += 1
                if real.hasPrefix("error") { errorsCompared += 1 }
                if real != inMemory {
                    // One per sequence: after the first, the two trees differ anyway.
                    mismatches.append("seed \(seed) step \(step) \(operation): real \(real), memory \(inMemory)")
                    break
                }
                if copiesADirectory && real == "error 516" {
                    // A directory copy stopped by an existing file part way: what was copied
                    // before it depends on the order the disk lists the directory in.
                    partialCopies += 1
                    diverged = true
                    break
                }
            }
            if diverged {
                try FileManager.default.removeItem(atPath: realBase)
                continue
            }
            let realTree = Self.tree(FileSystem.live, realBase)
            let memoryTree = Self.tree(memory, memoryBase)
            comparisons += 1
            if realTree != memoryTree {
                mismatches.append("seed \(seed) final tree: real \(realTree), memory \(memoryTree)")
            }
            try FileManager.default.removeItem(atPath: realBase)
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches:\n\(mismatches.prefix(10).joined(separator: "\n"))")
        #expect(errorsCompared > Self.sequences)
        print(
            "FileSystem differential: \(Self.sequences) sequences, \(comparisons) comparisons "
                + "(\(errorsCompared) of them errors), \(mismatches.count) mismatches; "
                + "\(partialCopies) sequences stopped at a directory copy that failed part way")
    }

    /// Every item under `base` with its kind and, for files, contents.
    static func tree(_ fileSystem: FileSystem, _ base: String) -> [String] {
        var result: [String] = []
        func visit(_ relative: String) {
            let path = relative.isEmpty ? base : base + "/" + relative
            guard let names = try? fileSystem.contentsOfDirectory(atPath: path) else { return }
            for name in names.sorted() {
                let child = relative.isEmpty ? name : relative + "/" + name
                var isDirectory = false
                _ = fileSystem.fileExists(atPath: base + "/" + child, isDirectory: &isDirectory)
                if isDirectory {
                    result.append(child + "/")
                    visit(child)
                } else {
                    result.append(
                        child + "="
                            + String(decoding: fileSystem.contents(atPath: base + "/" + child) ?? Data(), as: UTF8.self)
                    )
                }
            }
        }
        visit("")
        return result
    }

    enum Operation: CustomStringConvertible {
        case exists(String)
        case contents(String)
        case createFile(String, String)
        case createDirectory(String, intermediates: Bool)
        case remove(String)
        case move(String, String)
        case copy(String, String)
        case list(String)
        case attributes(String)
        case read(String)
        case write(String, String, withoutOverwriting: Bool)

        static func path(using random: inout RandomSource) -> String {
            let depth = Int.random(in: 1...3, using: &random)
            return (0..<depth).map { _ in names.randomElement(using: &random)! }.joined(separator: "/")
        }

        static func random(using random: inout RandomSource) -> Operation {
            let path = path(using: &random)
            let text = ["", "x", "hello"].randomElement(using: &random)!
            switch Int.random(in: 0..<16, using: &random) {
            case 0: return .exists(path)
            case 1: return .contents(path)
            case 2, 3: return .createFile(path, text)
            case 4, 5, 6: return .createDirectory(path, intermediates: Bool.random(using: &random))
            case 7: return .remove(path)
            case 8: return .move(path, Self.path(using: &random))
            case 9:
                let destination = Self.path(using: &random)
                // Copying a directory into itself: Linux's answer is not a rule (see above).
                if destination.hasPrefix(path + "/") { return .list(path) }
                return .copy(path, destination)
            case 10: return .list(path)
            case 11: return .attributes(path)
            case 12: return .read(path)
            default: return .write(path, text, withoutOverwriting: Bool.random(using: &random))
            }
        }

        /// Whether this is a copy whose source is a directory.
        func copiesADirectory(on fileSystem: FileSystem, base: String) -> Bool {
            guard case .copy(let source, _) = self else { return false }
            var isDirectory = false
            return fileSystem.fileExists(atPath: base + "/" + source, isDirectory: &isDirectory) && isDirectory
        }

        /// The result, or `error <CocoaError code>`, of this call on `fileSystem` under `base`.
        func outcome(on fileSystem: FileSystem, base: String) -> String {
            func at(_ path: String) -> String { base + "/" + path }
            do {
                switch self {
                case .exists(let path):
                    var isDirectory = false
                    let exists = fileSystem.fileExists(atPath: at(path), isDirectory: &isDirectory)
                    return "\(exists) \(isDirectory)"
                case .contents(let path):
                    return fileSystem.contents(atPath: at(path)).map { String(decoding: $0, as: UTF8.self) } ?? "nil"
                case .createFile(let path, let text):
                    return "\(fileSystem.createFile(atPath: at(path), contents: Data(text.utf8)))"
                case .createDirectory(let path, let intermediates):
                    try fileSystem.createDirectory(atPath: at(path), withIntermediateDirectories: intermediates)
                case .remove(let path):
                    try fileSystem.removeItem(atPath: at(path))
                case .move(let source, let destination):
                    try fileSystem.moveItem(atPath: at(source), toPath: at(destination))
                case .copy(let source, let destination):
                    try fileSystem.copyItem(atPath: at(source), toPath: at(destination))
                case .list(let path):
                    return try fileSystem.contentsOfDirectory(atPath: at(path)).sorted().joined(separator: ",")
                case .attributes(let path):
                    let attributes = try fileSystem.attributesOfItem(atPath: at(path))
                    // Read as legacy code reads FileManager's dictionary: a forced `UInt64`.
                    let size = attributes[.size] as! UInt64
                    return attributes[.type] as? FileAttributeType == .typeRegular ? "file \(size)" : "directory"
                case .read(let path):
                    return String(decoding: try fileSystem.contents(of: URL(fileURLWithPath: at(path))), as: UTF8.self)
                case .write(let path, let text, let withoutOverwriting):
                    try fileSystem.write(
                        Data(text.utf8), to: URL(fileURLWithPath: at(path)),
                        options: withoutOverwriting ? .withoutOverwriting : [])
                }
                return "ok"
            } catch let error as CocoaError {
                return "error \(error.code.rawValue)"
            } catch {
                return "error \(error)"
            }
        }

        var description: String {
            switch self {
            case .exists(let path): "exists(\(path))"
            case .contents(let path): "contents(\(path))"
            case .createFile(let path, let text): "createFile(\(path), \"\(text)\")"
            case .createDirectory(let path, let intermediates):
                "createDirectory(\(path), intermediates: \(intermediates))"
            case .remove(let path): "remove(\(path))"
            case .move(let source, let destination): "move(\(source) → \(destination))"
            case .copy(let source, let destination): "copy(\(source) → \(destination))"
            case .list(let path): "list(\(path))"
            case .attributes(let path): "attributes(\(path))"
            case .read(let path): "read(\(path))"
            case .write(let path, let text, let withoutOverwriting):
                "write(\(path), \"\(text)\", withoutOverwriting: \(withoutOverwriting))"
            }
        }
    }
}
