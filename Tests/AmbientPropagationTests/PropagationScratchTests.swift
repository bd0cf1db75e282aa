// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Testing

// @testable: the carriers' scratch buffer is internal to AmbientPropagation.
@testable import AmbientPropagation

// Why: a decode copies each field's text into the scratch from wherever the string keeps its bytes; what lands there must be exactly its UTF-8, cut at the limit.

@Suite("PropagationScratch: text lands as its UTF-8")
struct PropagationScratchTests {
    @Test(arguments: [
        "",  // empty
        "beta",  // small: kept inside the string value
        "fixed:43200.0 and then some more text",  // large: kept in a buffer
        "größe=ünïcödé ✓",  // non-ASCII
        String(repeating: "x", count: 700),  // past the 512 stack bytes: the scratch moves to the heap
    ])
    func textIsAppendedAsItsBytes(_ text: String) {
        PropagationScratch.withScratch { scratch in
            let before = scratch.append("prefix/")
            let whole = scratch.append(text)
            let cut = scratch.append(text, upTo: 5)
            let fromSubstring = scratch.append(String(text.dropFirst()))
            #expect(scratch.withBytes(before) { Array($0) } == Array("prefix/".utf8))
            #expect(scratch.withBytes(whole) { Array($0) } == Array(text.utf8))
            #expect(scratch.withBytes(cut) { Array($0) } == Array(text.utf8.prefix(5)))
            #expect(scratch.withBytes(fromSubstring) { Array($0) } == Array(text.dropFirst().utf8))
        }
    }
}
