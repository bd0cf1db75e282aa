// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Dispatch
import Foundation
import Testing

/// Statics whose initialisers ask, directly and from a few calls down.
private enum Initialised {
    static let directly: Bool = OnceInitialiser.isRunning()
    static let throughAnObject = OnceProbeHolder()
    nonisolated(unsafe) static var lazily: Bool = OnceInitialiser.isRunning()
}

private let aGlobal: Bool = OnceInitialiser.isRunning()

private final class OnceProbeHolder: Sendable {
    let seen: Bool
    init() { seen = Self.ask() }
    @inline(never) static func ask() -> Bool { OnceInitialiser.isRunning() }
}

@Suite struct OnceInitialiserTests {
    @Test func aStaticsOrGlobalsInitialiserIsSeen() {
        #expect(Initialised.directly)
        #expect(Initialised.throughAnObject.seen)
        #expect(Initialised.lazily)
        #expect(aGlobal)
    }

    @Test func codeThatNoInitialiserRunsIsNot() async {
        #expect(!OnceInitialiser.isRunning())
        #expect(!OnceProbeHolder().seen)
        let onAQueue = DispatchQueue(label: "once").sync { OnceInitialiser.isRunning() }
        #expect(!onAQueue)
        let onAThread = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: OnceInitialiser.isRunning()) }.start()
        }
        #expect(!onAThread)
        let inATask = await Task.detached { OnceInitialiser.isRunning() }.value
        #expect(!inATask)
    }
}

/// A static's initialiser that reaches the question eight calls down (a `shared` object's
/// initialiser that reads in a helper of a helper).
private enum Deep {
    @inline(never) static func down(_ calls: Int) -> Bool { calls == 0 ? OnceInitialiser.isRunning() : down(calls - 1) }
    static let eightCallsDown = down(8)
}

@Test func anInitialiserEightCallsUpIsSeen() {
    #expect(Deep.eightCallsDown)
}
