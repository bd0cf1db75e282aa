// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Testing

// @testable: the carriers' byte classes are internal to AmbientPropagation; every entry is
// checked against its definition here.
@testable import AmbientPropagation

// Why: the carriers' byte classes are written out as a table; each class must be exactly its definition.

@Suite("ByteClass: the table is the definitions")
struct ByteClassTests {
    @Test func everyByteIsClassifiedAsItsDefinitionSays() {
        func ascii(_ byte: UInt8, in ranges: ClosedRange<Character>..., or others: String = "") -> Bool {
            guard byte < 128 else { return false }
            let character = Character(Unicode.Scalar(byte))
            return ranges.contains { $0.contains(character) } || others.contains(character)
        }
        for value in 0...255 {
            let byte = UInt8(value)
            let baggage = byte > 0x20 && byte < 0x7F && !"\",;\\".utf8.contains(byte)
            #expect(ByteClass.baggageOctet.contains(byte) == baggage, "baggage-octet \(byte)")
            #expect(
                ByteClass.plainBaggageOctet.contains(byte) == (baggage && byte != UInt8(ascii: "%")),
                "plain baggage-octet \(byte)")
            #expect(
                ByteClass.fieldName.contains(byte) == ascii(byte, in: "a"..."z", "0"..."9", or: "-"), "name \(byte)")
            #expect(
                ByteClass.keyID.contains(byte) == ascii(byte, in: "a"..."z", "A"..."Z", "0"..."9", or: "-_"),
                "key \(byte)")
            #expect(
                ByteClass.token.contains(byte)
                    == ascii(byte, in: "a"..."z", "A"..."Z", "0"..."9", or: "!#$%&'*+-.^_`|~"),
                "tchar \(byte)")
            for byteClass in [ByteClass.baggageOctet, .plainBaggageOctet, .fieldName, .token, .keyID] {
                #expect((byteClass.outside(byte) == 0) == byteClass.contains(byte), "outside \(byte)")
            }
        }
    }
}
