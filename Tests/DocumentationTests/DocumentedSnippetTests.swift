// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

/// Keeps the documentation's code honest where scripts/doc-blocks does not compile it as
/// written: a whole package manifest (it starts with `// swift-tools-version`) is checked
/// by `swift package dump-package`, and a block a page's tests copy must still be the page's.
/// (scripts/doc-blocks writes the server article's excerpts into the server examples itself.)
///
/// Lines are compared after trimming and collapsing runs of spaces, so a block may sit
/// indented inside a test or a type.
@Suite("Documented snippets")
struct DocumentedSnippetTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let documents: [String] =
        ["README.md"]
        + ((try? FileManager.default.contentsOfDirectory(
            atPath: root.appendingPathComponent("Sources/Ambient/Ambient.docc").path)) ?? [])
        .filter { $0.hasSuffix(".md") }.sorted().map { "Sources/Ambient/Ambient.docc/\($0)" }

    /// A page's hand-written tests (`Tests/Documents/<Page>/`, beside its generated
    /// Blocks.swift) may run a statement block inside a test that watches it: each region
    /// from `// doc: name` to `// doc-end` there is a block of a page, verbatim, so the test
    /// tests the page's code, never a drifted copy.
    @Test("every copied region in Tests/Documents/ is a block of a page")
    func everyCopiedRegionIsABlock() throws {
        let blocks = try Self.documents.flatMap { try Snippets.swiftBlocks(in: Self.root.appendingPathComponent($0)) }
        let pageBlocks = Set(blocks.map(\.normalized))
        let pages = Self.root.appendingPathComponent("Tests/Documents")
        var regions = 0
        for page in try FileManager.default.contentsOfDirectory(atPath: pages.path).sorted() {
            let directory = pages.appendingPathComponent(page)
            for file in ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
            where file.hasSuffix(".swift") && file != "Blocks.swift" {
                let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                for region in Snippets.regions(in: text) {
                    regions += 1
                    #expect(
                        pageBlocks.contains(Snippets.normalize(region.text)),
                        "Tests/Documents/\(page)/\(file): the region `\(region.name)` is no longer a block of any page: copy the page's block again, or drop the region's markers"
                    )
                }
            }
        }
        #expect(regions > 0, "no copied regions found under Tests/Documents/: the check would pass vacuously")
    }

    @Test("package manifests parse", arguments: documents)
    func manifestsParse(document: String) throws {
        let manifests = try Snippets.swiftBlocks(in: Self.root.appendingPathComponent(document))
            .filter(\.isManifest)
        #expect(!manifests.isEmpty || document != "README.md", "README.md should show how to depend on Ambient")
        for manifest in manifests {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("ambient-manifest-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            try manifest.text.write(
                to: directory.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
            let (status, output) = try Snippets.run(["swift", "package", "dump-package"], in: directory)
            #expect(status == 0, "\(document):\(manifest.line): the manifest does not parse:\n\(output)")
        }
    }

    @Test("the extractor finds blocks and compares loosely")
    func extractorWorks() throws {
        let markdown = """
            text
            ```swift
            let a   = 1
                print(a)
            ```
            ```objc
            ignored
            ```
            """
        let blocks = Snippets.swiftBlocks(inMarkdown: markdown)
        try #require(blocks.count == 1)
        #expect(blocks[0].line == 2)
        #expect(blocks[0].normalized == "\nlet a = 1\nprint(a)\n")
        #expect(Snippets.normalize("    let a = 1\n\n    print(a)  // x") == "\nlet a = 1\nprint(a) // x\n")
    }
}

/// Extraction and comparison of documented code blocks.
enum Snippets {
    struct Block {
        /// The 1-based line of the opening fence.
        let line: Int
        let text: String
        var normalized: String { Snippets.normalize(text) }
        var isManifest: Bool { text.hasPrefix("// swift-tools-version") }
    }

    static func swiftBlocks(in file: URL) throws -> [Block] {
        swiftBlocks(inMarkdown: try String(contentsOf: file, encoding: .utf8))
    }

    static func swiftBlocks(inMarkdown markdown: String) -> [Block] {
        var blocks: [Block] = []
        var open: (line: Int, lines: [String])?
        var fenced = false
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if var current = open {
                if trimmed == "```" {
                    blocks.append(Block(line: current.line, text: current.lines.joined(separator: "\n")))
                    open = nil
                } else {
                    current.lines.append(String(line))
                    open = current
                }
            } else if trimmed.hasPrefix("```") {
                if fenced {
                    fenced = false
                } else if trimmed == "```swift" {
                    open = (index + 1, [])
                } else {
                    fenced = true
                }
            }
        }
        return blocks
    }

    /// Every line trimmed, runs of spaces collapsed, blank lines dropped; framed by newlines
    /// so that `contains` matches whole lines only.
    static func normalize(_ text: String) -> String {
        let lines = text.split(separator: "\n").map { line in
            line.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
        return "\n" + lines.filter { !$0.isEmpty }.joined(separator: "\n") + "\n"
    }

    /// The regions from `// doc: name` to `// doc-end` of a Swift file.
    static func regions(in text: String) -> [(name: String, text: String)] {
        var found: [(name: String, text: String)] = []
        var open: (name: String, lines: [String])?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("// doc: ") {
                open = (String(trimmed.dropFirst(8)), [])
            } else if trimmed == "// doc-end", let current = open {
                found.append((current.name, current.lines.joined(separator: "\n")))
                open = nil
            } else if open != nil {
                open?.lines.append(String(line))
            }
        }
        return found
    }

    static func run(_ arguments: [String], in directory: URL) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
