import Foundation
import Testing

/// Reports made where no test runs: in a program that links AmbientTesting (its load-time
/// set-up included) and in one that does not. Both write to standard error and carry on.
@Suite("Reports outside a test")
struct ReportOutsideATestTests {
    @Test func aProgramLinkingAmbientTestingWritesReportsToStandardErrorAndCarriesOn() throws {
        let run = try runChild("ReportOutsideATest")
        #expect(run.status == 0)
        #expect(run.output == "carried on\n")
        #expect(run.errors.contains("ReportOutsideATest/main.swift:1:1: error: reported outside a test"))
        #expect(run.errors.contains("sleepers still pending after 2 deadlines"))
        #expect(!run.errors.contains("link AmbientTesting"))
    }

    @Test func aProgramWithoutAmbientTestingSaysSoWhenItLooksLikeATestRun() throws {
        let plain = try runChild("ReportWithoutAmbientTesting")
        #expect(plain.status == 0 && plain.output == "carried on\n")
        #expect(plain.errors.contains("error: reported without AmbientTesting"))
        #expect(!plain.errors.contains("link AmbientTesting"))
        let asATestRun = try runChild("ReportWithoutAmbientTesting", arguments: ["--testing-library", "swift-testing"])
        #expect(asATestRun.status == 0)
        #expect(
            asATestRun.errors.contains(
                "reported without AmbientTesting (this did not fail the test: link AmbientTesting into the test target)"
            ))
    }

    struct Run {
        var status: Int32
        var output: String
        var errors: String
    }

    func runChild(_ name: String, arguments: [String] = []) throws -> Run {
        let process = Process()
        process.executableURL = try Self.executable(named: name)
        process.arguments = arguments
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
