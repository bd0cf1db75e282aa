// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation
import Testing

@Suite("ProcessEnvironment")
struct ProcessEnvironmentTests {
    /// Legacy code, ported by one word.
    func apiBaseURL() -> String {
        ProcessEnvironment.current["API_BASE_URL"] ?? "https://api.example.com"
    }

    @Test func theLiveValueIsProcessInfos() {
        #expect(ProcessEnvironment.current["PATH"] == ProcessInfo.processInfo.environment["PATH"])
        #expect(ProcessEnvironment.current.variables == ProcessInfo.processInfo.environment)
        #expect(ProcessEnvironment.current.arguments == ProcessInfo.processInfo.arguments)
        #expect(ProcessEnvironment.current.hostName == ProcessInfo.processInfo.hostName)
        #expect(ProcessEnvironment.current == .live)
    }

    @Test func aFixedEnvironmentIsExactlyItsValues() {
        let fixed = ProcessEnvironment(variables: ["HOME": "/home/test"], arguments: ["app", "-v"], hostName: "ci-7")
        withInjected(fixed) {
            #expect(ProcessEnvironment.current["HOME"] == "/home/test")
            #expect(ProcessEnvironment.current["PATH"] == nil)
            #expect(ProcessEnvironment.current.variables == ["HOME": "/home/test"])
            #expect(ProcessEnvironment.current.arguments == ["app", "-v"])
            #expect(ProcessEnvironment.current.hostName == "ci-7")
            #expect(apiBaseURL() == "https://api.example.com")
        }
        let changed = fixed.overriding(["HOME": nil, "API_BASE_URL": "http://localhost"])
        #expect(changed.variables == ["API_BASE_URL": "http://localhost"])
        #expect(changed.hostName == "ci-7")
    }

    @Test func overridingTheLiveEnvironmentNeverWritesTheRealOne() {
        let name = "AMBIENT_TEST_\(UUID().uuidString.prefix(8))"
        let overridden = ProcessEnvironment.live.overriding([name: "1", "PATH": nil])
        withInjected(overridden) {
            #expect(ProcessEnvironment.current[name] == "1")
            #expect(ProcessEnvironment.current["PATH"] == nil)
            #expect(ProcessEnvironment.current.variables[name] == "1")
            #expect(ProcessEnvironment.current.variables["PATH"] == nil)
            // The rest is the process's, read live.
            #expect(ProcessEnvironment.current["HOME"] == ProcessInfo.processInfo.environment["HOME"])
            #expect(getenv(name) == nil)
            #expect(ProcessInfo.processInfo.environment[name] == nil)
            withInjected(ProcessEnvironment.current.overriding(["API_BASE_URL": "http://localhost:8080"])) {
                #expect(apiBaseURL() == "http://localhost:8080")
                #expect(ProcessEnvironment.current[name] == "1")
            }
        }
        #expect(ProcessEnvironment.current[name] == nil)
    }

    @Test func parallelScopesNeverSeeEachOthersVariables() async {
        await withTaskGroup(of: Bool.self) { group in
            for index in 0..<200 {
                group.addTask {
                    await withInjected(ProcessEnvironment.live.overriding(["API_BASE_URL": "http://host-\(index)"])) {
                        await Task.yield()
                        return ProcessEnvironment.current["API_BASE_URL"] == "http://host-\(index)"
                    }
                }
            }
            for await seen in group { #expect(seen) }
        }
    }
}
