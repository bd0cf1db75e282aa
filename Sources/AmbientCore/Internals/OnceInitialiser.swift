// SPDX-License-Identifier: Apache-2.0

import _AmbientShims

// Why: a static or global is set once per process, by whichever code reaches it first; set in a
// test's scope, it would keep that test's values for every later test. The one-file port asks
// here whether a read is a one-time initialiser's, to say so instead.

/// Whether the calling thread is running a static's or global's one-time initialiser: the
/// frames Swift's one-time initialisation puts between an initialiser and the code that asked
/// for the value (the runtime's `swift_once`; on Apple platforms, libdispatch's
/// `dispatch_once` under it), looked for among the innermost frames.
///
/// Those frames are learnt once, from two statics of this type initialised from one place:
/// their stacks agree but for each initialiser's own frame and the frame that asked, and the
/// run of frames they share between the two is the one-time initialisation's. Where the C
/// library cannot list frames (musl, Windows), or the two stacks show no such run, nothing is
/// ever found.
package enum OnceInitialiser {
    /// How many of the innermost frames a search looks through: an initialiser that reaches a
    /// read more calls deep than about this, less the search's own three, is not seen.
    package static let depth = 16

    /// The return addresses of one-time initialisation, innermost first; empty where they
    /// could not be learnt.
    private static let signature: [UInt] = learn()

    private static let first: [UInt] = returnAddresses(count: 24)
    private static let second: [UInt] = returnAddresses(count: 24)

    /// The calling thread's innermost `count` return addresses, innermost first (this
    /// function's own call into the C library among them).
    @inline(never)
    private static func returnAddresses(count: Int) -> [UInt] {
        withUnsafeTemporaryAllocation(of: UnsafeMutableRawPointer?.self, capacity: count) { buffer in
            let found = Int(_ambient_return_addresses(buffer.baseAddress!, Int32(count)))
            return (0..<found).map { UInt(bitPattern: buffer[$0]) }
        }
    }

    /// Initialises ``first`` and ``second`` from this one place and keeps the frames their
    /// stacks share after their initialisers' own.
    @inline(never)
    private static func learn() -> [UInt] {
        let first = Self.first
        let second = Self.second
        var index = 0
        while index < min(first.count, second.count), first[index] == second[index] { index += 1 }
        // `index` is each initialiser's own frame; the shared run after it is what is learnt.
        var end = index + 1
        while end < min(first.count, second.count), first[end] == second[end] { end += 1 }
        guard end > index + 1, end < min(first.count, second.count) else { return [] }
        return Array(first[(index + 1)..<end])
    }

    /// Whether the calling thread runs a one-time initialiser within its innermost ``depth``
    /// frames (`false` where none can be seen). It lists frames (a few microseconds): only
    /// reads that may keep a test's value ask; the initialiser's name and line are the source
    /// locator's to find, for a report.
    package static func isRunning() -> Bool {
        let signature = Self.signature
        guard let head = signature.first else { return false }
        let frames = returnAddresses(count: depth)
        var index = 1
        while index + signature.count <= frames.count {
            if frames[index] == head, frames[index..<(index + signature.count)].elementsEqual(signature) {
                return true
            }
            index += 1
        }
        return false
    }
}
