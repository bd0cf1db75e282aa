// SPDX-License-Identifier: Apache-2.0

import Ambient
import AmbientTesting
import Foundation
import Testing

/// A sandbox per test through the trait: `make` throws, so it is written with `fresh:`.
@Suite(.injecting(fresh: { try FileSystem.sandbox() }))
struct SandboxTraitTests {
    @Test(arguments: 0..<8)
    func eachTestHasADirectoryOfItsOwn(index: Int) throws {
        let caches = FileSystem.current.url(for: .caches)
        #expect(caches.path.contains("ambient-sandbox-"))
        try FileSystem.current.write(Data("\(index)".utf8), to: caches.appendingPathComponent("mine"))
        #expect(try FileSystem.current.contentsOfDirectory(atPath: caches.path) == ["mine"])
        #expect(FileManager.default.contents(atPath: caches.path + "/mine") == Data("\(index)".utf8))
    }
}
