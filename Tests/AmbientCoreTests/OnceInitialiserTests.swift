// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Dispatch
import Foundation
import Testing

/// Statics whose initialisers ask, directly and from a few calls down.
private enum Initialised {
    static let directly: UInt? = OnceInitialiser.running()
    static let throughAnObject = OnceProbeHolder()
    nonisolated(unsafe) static var lazily: UInt? = OnceInitialiser.running()
}

private let aGlobal: UInt? = OnceInitialiser.running()

private final class OnceProbeHolder: Sendable {
    let seen: UInt?
    init() { seen = Self.ask() }
    @inline(never) static func ask() -> UInt? { OnceInitialiser.running() }
}

@Suite struct OnceInitialiserTests {
    @Test func aStaticsOrGlobalsInitialiserIsSeen() {
        #expect(Initialised.directly != nil)
        #expect(Initialised.throughAnObject.seen != nil)
        #expect(Initialised.lazily != nil)
        #expect(aGlobal != nil)
    }

    @Test func codeThatNoInitialiserRunsIsNot() async {
        #expect(OnceInitialiser.running() == nil)
        #expect(OnceProbeHolder().seen == nil)
        let onAQueue = DispatchQueue(label: "once").sync { OnceInitialiser.running() }
        #expect(onAQueue == nil)
        let onAThread = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: OnceInitialiser.running()) }.start()
        }
        #expect(onAThread == nil)
        let inATask = await Task.detached { OnceInitialiser.running() }.value
        #expect(inATask == nil)
    }
}

/// A static's initialiser that reaches the question eight calls down (a `shared` object's
/// initialiser that reads in a helper of a helper).
private enum Deep {
    @inline(never) static func down(_ calls: Int) -> UInt? { calls == 0 ? OnceInitialiser.running() : down(calls - 1) }
    static let eightCallsDown = down(8)
}

@Test func anInitialiserEightCallsUpIsSeen() {
    #expect(Deep.eightCallsDown != nil)
}
