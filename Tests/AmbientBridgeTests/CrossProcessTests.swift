// SPDX-License-Identifier: Apache-2.0

#if ServiceContext
import Ambient
import ContextEcho
import Foundation
import Instrumentation
import ServiceContextModule
import Testing

/// A test fixes the clock and a feature flag, hands a carrier (headers) to a real child
/// process, and the child prints what `Clock.current` and `EchoFlags.current` are there.
@Suite("Propagated values across processes")
struct CrossProcessTests {
    @Test func theChildSeesTheTestsClockAndFlags() throws {
        let date = Date(timeIntervalSinceReferenceDate: 0.1 + 0.2)
        let headers = withInjected(Clock.fixed(date), EchoFlags(["new-checkout", "dark-mode"])) {
            var headers: [String: String] = [:]
            AmbientInstrument(propagating: EchoFlags.carried).inject(
                ServiceContext.current ?? .topLevel, into: &headers, using: DictionaryInjector())
            return headers
        }
        let output = try runChild(headers)
        #expect(output.status == 0)
        #expect(
            output.lines == ["clock: \(date.timeIntervalSinceReferenceDate)", "flags: flags[dark-mode,new-checkout]"])
    }

    @Test func withNothingInjectedTheChildKeepsItsOwn() throws {
        let output = try runChild([:])
        #expect(output.status == 0)
        #expect(output.lines.last == "flags: flags[]")
        let clock = try #require(output.lines.first?.dropFirst("clock: ".count)).flatMap { Double($0) }
        let now = Date().timeIntervalSinceReferenceDate
        #expect(abs((clock ?? 0) - now) < 600, "the child's live clock")
    }

    @Test func anUndecodableHeaderIsSkippedNeverACrash() throws {
        let output = try runChild(["ambient-clock": "fixed:12.5", "ambient-echo-flags": "Not%20Valid"])
        #expect(output.status == 0)
        #expect(
            output.lines == [
                #"skipped: ambient-echo-flags ("Not%20Valid"): does not decode as EchoFlags: flag name "Not Valid" is not lowercase letters and -"#,
                "clock: 12.5", "flags: flags[]",
            ])
    }

    @Test func strictDecodingGivesATypedErrorAndAnExitStatus() throws {
        let output = try runChild(["ambient-clock": "noon"], arguments: ["--strict"])
        #expect(output.status == 3)
        #expect(
            output.lines == [
                #"error: ambient-clock ("noon"): does not decode as Clock: expected fixed:<seconds since 2001>, such as fixed:0.0"#
            ])
    }

    // MARK: - The child

    struct Output {
        var status: Int32
        var lines: [String]
    }

    func runChild(_ headers: [String: String], arguments: [String] = []) throws -> Output {
        let process = Process()
        process.executableURL = try Self.contextEcho()
        process.arguments = arguments
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let carrier = headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)\n" }.joined()
        input.fileHandleForWriting.write(Data(carrier.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        return Output(status: process.terminationStatus, lines: lines)
    }

    /// `ContextEcho`, built beside the test bundle (the test target depends on it).
    static func contextEcho() throws -> URL {
        var starts = [Bundle.main.executableURL, Bundle.main.bundleURL].compactMap { $0 }
        starts.append(URL(fileURLWithPath: CommandLine.arguments[0]))
        for start in starts {
            var directory = start.deletingLastPathComponent()
            for _ in 0..<5 {
                let candidate = directory.appendingPathComponent("ContextEcho")
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                directory.deleteLastPathComponent()
            }
        }
        throw ChildNotFound(searched: starts.map(\.path))
    }

    struct ChildNotFound: Error, CustomStringConvertible {
        let searched: [String]
        var description: String { "ContextEcho not found near \(searched)" }
    }
}
#endif
