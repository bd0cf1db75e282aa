// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Each provider's `followingCurrent` (what the one-file port's accessors return) is the
/// current value wherever it is used: taken before a scope, it reads and writes what the scope
/// injected; with nothing injected, the live value; injected itself, the live value (not a loop).
@Suite
struct FollowingCurrentTests {
    @Test func defaultsFollowTheScopeTheyAreUsedIn() {
        let kept = Defaults.followingCurrent
        let first = Defaults.inMemory()
        let second = Defaults.inMemory()
        withInjected(first) { kept.set("one", forKey: "draft") }
        withInjected(second) { kept.set("two", forKey: "draft") }
        #expect(first.snapshot == ["draft": .string("one")])
        #expect(second.snapshot == ["draft": .string("two")])
        withInjected(second) { #expect(kept.string(forKey: "draft") == "two") }
        withInjected(Defaults.followingCurrent) {
            #expect(kept.string(forKey: "FollowingCurrentTests.unset") == nil)
            #expect(kept.description == "Defaults.followingCurrent")
        }
    }

    @Test func aFileSystemFollowsTheScopeItIsUsedIn() throws {
        let kept = FileSystem.followingCurrent
        let files = FileSystem.inMemory()
        let url = files.temporaryDirectory.appendingPathComponent("following.txt")
        try withInjected(files) { try kept.write(Data("x".utf8), to: url) }
        #expect(files.contents(atPath: url.path) == Data("x".utf8))
        #expect(kept.temporaryDirectory == FileSystem.live.temporaryDirectory)
        withInjected(FileSystem.followingCurrent) {
            #expect(FileSystem.current.temporaryDirectory == FileSystem.live.temporaryDirectory)
        }
    }

    @Test func notificationsFollowTheScopeTheyAreUsedIn() {
        let kept = Notifications.followingCurrent
        let isolated = Notifications.isolated()
        let received = Locked<[String]>([])
        let token = withInjected(isolated) {
            kept.addObserver(forName: Notification.Name("following")) { note in
                received.withLock { $0.append(note.name.rawValue) }
            }
        }
        defer { isolated.removeObserver(token) }
        withInjected(isolated) { kept.post(name: Notification.Name("following")) }
        kept.post(name: Notification.Name("following"))  // the live center: not the isolated one
        #expect(received.withLock { $0 } == ["following"])
        #expect(withInjected(isolated) { kept.center } === isolated.center)
        #expect(withInjected(Notifications.followingCurrent) { kept.center } === NotificationCenter.default)
    }

    @Test func anEnvironmentFollowsTheScopeItIsUsedIn() {
        let kept = ProcessEnvironment.followingCurrent
        withInjected(ProcessEnvironment(variables: ["MODE": "test"], arguments: ["tool"], hostName: "test-host")) {
            #expect(kept["MODE"] == "test")
            #expect(kept.arguments == ["tool"])
            #expect(kept.hostName == "test-host")
        }
        #expect(kept.variables == ProcessInfo.processInfo.environment)
        withInjected(ProcessEnvironment.followingCurrent) {
            #expect(kept.arguments == ProcessInfo.processInfo.arguments)
        }
    }

    @Test func aSessionFollowsTheScopeItIsUsedIn() async throws {
        let kept = NetworkSession.followingCurrent
        let stub = NetworkSession.stub { _ in .response(status: 200, headers: [:], body: Data("stub".utf8)) }
        let (data, _) = try await withInjected(stub) { try await kept.data(from: URL(string: "https://example.com/")!) }
        #expect(data == Data("stub".utf8))
        #expect(stub.requests.count == 1)
        #expect(kept.description == "NetworkSession.followingCurrent")
    }
}
