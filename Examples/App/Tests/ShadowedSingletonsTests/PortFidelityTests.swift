// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

/// With nothing injected the one-file port is invisible: the same legacy lines, run against
/// the module as written (EchoUnported) and against it ported (EchoPorted), write the same
/// bytes to the same streams (`print` with its separator and terminator on standard output,
/// `NSLog` on standard error, the region's values as Foundation prints them, `FileManager`'s
/// attributes dictionary, queues with a target and `sync`).
@Suite
struct PortFidelityTests {
    @Test(arguments: [
        [:], ["TZ": "Pacific/Auckland", "LANG": "de_DE.UTF-8", "LC_ALL": "de_DE.UTF-8"],
        ["TZ": "America/New_York", "LANG": "ja_JP.UTF-8"],
    ])
    func withNothingInjectedThePortedModuleWritesWhatTheModuleWrote(environment: [String: String]) throws {
        let ported = try Echo.run("EchoPorted", environment: environment)
        let unported = try Echo.run("EchoUnported", environment: environment)
        #expect(ported.status == 0)
        #expect(unported.status == 0)
        #expect(ported.output.contains("printed x\ntea ... 2.5;\ncake ... 3.0;\n\ntotal: 5.5\n"))
        #expect(ported.output == unported.output)
        // NSLog's prefix names the program and its process: the rest is the line.
        #expect(ported.errors.map(Echo.withoutNSLogPrefix) == ["logged x 42"])
        #expect(ported.errors.map(Echo.withoutNSLogPrefix) == unported.errors.map(Echo.withoutNSLogPrefix))
    }
}

/// The echo programs, built beside the test program (the test target depends on them).
enum Echo {
    struct Run {
        var status: Int32
        var output: String
        var errors: [String]
    }

    static func run(_ name: String, environment: [String: String]) throws -> Run {
        let process = Process()
        process.executableURL = try executable(named: name)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Both pipes read at once, so neither fills while the other is read. (`errorData` is
        // written on the other thread before `wait()` returns, and read only after.)
        nonisolated(unsafe) var errorData = Data()
        let errorsRead = DispatchGroup()
        DispatchQueue.global().async(group: errorsRead) {
            errorData = errors.fileHandleForReading.readDataToEndOfFile()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        errorsRead.wait()
        process.waitUntilExit()
        let lines = String(decoding: errorData, as: UTF8.self).split(separator: "\n").map(String.init)
        return Run(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self), errors: lines)
    }

    /// `2026-12-07 15:25:51.973 EchoPorted[8185:1f01aa80] logged x 42` → `logged x 42`.
    static func withoutNSLogPrefix(_ line: String) -> String {
        guard let end = line.range(of: "] ") else { return line }
        return String(line[end.upperBound...])
    }

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
