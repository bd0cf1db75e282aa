// SPDX-License-Identifier: Apache-2.0

// Why: every byte of a carried field is classified; a two-word bitmask does it in a few instructions.

/// A set of ASCII bytes as a 128-bit mask (bit `b` for byte `b`): membership is a shift and
/// a test, with no branches per range and no table to load. Bytes from 128 up are never in.
/// The masks are written out (`ByteClassTests` checks each against its definition).
struct ByteClass {
    /// Bytes 0–63 and 64–127.
    let low: UInt64
    let high: UInt64

    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        bit(byte) == 1
    }

    /// 1 when `byte` is in the set, 0 when not: to OR into a loop's verdict with no branch
    /// per byte.
    @inline(__always)
    func bit(_ byte: UInt8) -> UInt64 {
        let word = byte < 64 ? low : (byte < 128 ? high : 0)
        return (word >> UInt64(byte & 63)) & 1
    }

    /// W3C Baggage's `baggage-octet`: visible ASCII but `"`, `,`, `;` and `\`.
    static let baggageOctet = ByteClass(low: 0xf7ff_effa_0000_0000, high: 0x7fff_ffff_efff_ffff)
    /// A `baggage-octet` that is not `%`: a byte that stands for itself in an escaped value.
    static let plainBaggageOctet = ByteClass(low: 0xf7ff_efda_0000_0000, high: 0x7fff_ffff_efff_ffff)
    /// A listed field name's bytes: `a-z`, `0-9`, `-`.
    static let fieldName = ByteClass(low: 0x03ff_2000_0000_0000, high: 0x07ff_fffe_0000_0000)
    /// RFC 9110's `tchar` (a baggage key's bytes): `a-z`, `A-Z`, `0-9` and ``!#$%&'*+-.^_`|~``.
    static let token = ByteClass(low: 0x03ff_6cfa_0000_0000, high: 0x57ff_ffff_c7ff_fffe)
    /// A signing key id's bytes: `a-z`, `A-Z`, `0-9`, `-`, `_`.
    static let keyID = ByteClass(low: 0x03ff_2000_0000_0000, high: 0x07ff_fffe_87ff_fffe)
}
