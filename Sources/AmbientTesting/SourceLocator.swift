// SPDX-License-Identifier: Apache-2.0

import AmbientCore

#if canImport(Runtime)
import Runtime
#endif

// Why: a report of a read that no scope reached, or of a static set in a test's scope, is
// only worth as much as the line it names; Swift's backtracer is the one thing that can name it.

/// Called by `_AmbientTestingShims` when the program loads.
@_cdecl("ambient_testing_install_locator")
func installSourceLocator() {
    RunningTest.markLoaded()
    SourceLocator.install()
}

/// Finds places in the calling thread's stack for Ambient's reports (`RunningTest.Locator`),
/// with Swift's backtracer (the `Runtime` module): installed as a test program that links
/// AmbientTesting loads. Where the platform has no backtracer, nothing is installed and the
/// reports name no line.
enum SourceLocator {
    /// Installs the locator, where the platform can symbolicate.
    static func install() {
        #if canImport(Runtime)
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            RunningTest.locator = RunningTest.Locator(
                onceInitialiser: {
                    frames().first { $0.function.hasPrefix("one-time initialization function for ") }
                },
                caller: {
                    frames().first { !isAmbients($0.filePath) && !isGenerated($0.filePath) }
                })
        }
        #endif
    }

    /// The folder that holds Ambient's modules' sources: `…/Sources`.
    private static let ambientSources: String = {
        var path = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        path.removeLast(2)
        return path.joined(separator: "/") + "/"
    }()

    /// The one-file port's files, which a module or test target adds to its own sources.
    private static let portFiles: Set<Substring> = ["AmbientShadows.swift", "AmbientSystemNames.swift"]

    /// Whether `path` is a file of Ambient's: its modules or the one-file port's files.
    static func isAmbients(_ path: String) -> Bool {
        path.hasPrefix(ambientSources) || portFiles.contains(path.split(separator: "/").last ?? "")
    }

    /// Whether `path` is a macro's expansion (`#expect`'s): the frame that wrote the macro is
    /// the next one, with the line a reader looks for.
    static func isGenerated(_ path: String) -> Bool {
        path.contains("/@__swiftmacro_") || path.hasPrefix("@__swiftmacro_")
    }

    /// `Module/File.swift` for a path under `Sources/Module/` or `Tests/Module/`, else the file
    /// and its folder.
    static func fileID(of path: String) -> String {
        let parts = path.split(separator: "/")
        guard let file = parts.last else { return path }
        if let root = parts.lastIndex(where: { $0 == "Sources" || $0 == "Tests" }), root + 1 < parts.count - 1 {
            return "\(parts[root + 1])/\(file)"
        }
        return parts.count > 1 ? "\(parts[parts.count - 2])/\(file)" : String(file)
    }

    #if canImport(Runtime)
    /// The calling thread's frames that have a source location, innermost first.
    @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
    private static func frames() -> [RunningTest.SourcePlace] {
        guard let backtrace = try? Backtrace.capture(algorithm: .precise, limit: 128),
            let symbolicated = backtrace.symbolicated()
        else { return [] }
        return symbolicated.frames.compactMap { frame in
            guard let symbol = frame.symbol, let location = symbol.sourceLocation, !frame.isSwiftThunk else {
                return nil
            }
            return RunningTest.SourcePlace(
                function: symbol.name, fileID: fileID(of: location.path), filePath: location.path,
                line: location.line, column: location.column)
        }
    }
    #endif
}
