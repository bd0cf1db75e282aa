// SPDX-License-Identifier: Apache-2.0

import Foundation

/// The helper programs the test target depends on (built beside the test program), run as
/// children.
enum ChildProgram {
    struct Run {
        var status: Int32
        var output: String
        var errors: String
    }

    /// Runs the helper program `name` to its end, with `environment` added to this
    /// process's, and collects what it wrote.
    static func run(_ name: String, arguments: [String] = [], environment: [String: String] = [:]) throws -> Run {
        let process = Process()
        process.executableURL = try Self.executable(named: name)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            errors: String(decoding: errorData, as: UTF8.self))
    }

    /// A helper program built beside the test bundle (the test target depends on it).
    static func executable(named name: String) throws -> URL {
        var starts = [Bundle.main.executableURL, Bundle.main.bundleURL].compactMap { $0 }
        starts.append(URL(fileURLWithPath: CommandLine.arguments[0]))
        for start in starts {
            var directory = start.deletingLastPathComponent()
            for _ in 0..<5 {
                let candidate = directory.appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                directory.deleteLastPathComponent()
            }
        }
        throw NotFound(name: name)
    }

    struct NotFound: Error, CustomStringConvertible {
        let name: String
        var description: String { "\(name) not found beside the test program" }
    }
}
