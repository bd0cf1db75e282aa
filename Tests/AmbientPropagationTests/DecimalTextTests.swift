// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation
import Testing

// @testable: the carriers' decimal parser is internal to AmbientPropagation; fuzzed and
// checked against Swift's own here.
@testable import AmbientPropagation

/// The short decimal reader behind a propagated clock: it answers exactly what `Double(_:)`
/// answers, or leaves the text to it.
@Suite("DecimalText: short decimals read as Double(_:) reads them")
struct DecimalTextTests {
    private func read(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { DecimalText.shortDouble($0) }
    }

    @Test func everyDoubleSwiftPrintsShortlyReadsBackBitForBit() {
        var random = SplitMix(state: 21)
        var readHere = 0
        for _ in 0..<50_000 {
            // Dates as tests write them (whole and fractional seconds), and any bit pattern.
            let candidates = [
                Double(Int64(bitPattern: random.next()) % 4_000_000_000),
                Double(Int64(bitPattern: random.next()) % 4_000_000_000_000) / 1000,
                Double(bitPattern: random.next()),
            ]
            for value in candidates where value.isFinite {
                let text = "\(value)"
                guard let read = read(text) else { continue }
                readHere += 1
                #expect(read.bitPattern == value.bitPattern, "\(text)")
            }
        }
        #expect(readHere > 75_000)  // the dates are read here, not left to Double(_:)
    }

    @Test func anyShortDecimalReadsAsDoubleReadsIt() {
        var random = SplitMix(state: 7)
        for _ in 0..<30_000 {
            let whole = String(random.next() % 1_000_000_000)
            let fraction = String(random.next() % 1_000_000)
            let zeros = String(repeating: "0", count: Int(random.next() % 8))
            for text in ["\(whole).\(zeros)\(fraction)", "-\(whole).\(fraction)\(zeros)", "0.\(zeros)\(fraction)"] {
                guard let read = read(text) else { continue }
                #expect(read.bitPattern == Double(text)?.bitPattern, "\(text)")
            }
        }
    }

    @Test(arguments: [
        "", "-", ".", "1.", ".5", "-.5", "1e5", "1.5e-05", "inf", "nan", "0x1p3", "1.2.3", "+1.0", " 1.0", "1,0",
        "1234567890123456", "0.12345678901234567", "1.00000000000000000000001",
    ])
    func whatItDoesNotReadIsLeftToDouble(text: String) {
        #expect(read(text) == nil)
    }

    @Test func signsAndZerosAreKept() {
        #expect(read("-0.0")?.bitPattern == (-0.0 as Double).bitPattern)
        #expect(read("0.0")?.bitPattern == (0.0 as Double).bitPattern)
        #expect(read("000123.500") == 123.5)
        #expect(read("10000000000000.0") == 1e13)
        #expect(read("100000000000000.0") == nil)  // 16 significant digits: the trailing 0 counts
    }
}
