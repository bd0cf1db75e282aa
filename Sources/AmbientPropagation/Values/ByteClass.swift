// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import _AmbientShims

// Why: every byte of a propagated field is classified; one load from a shared table does it.

/// A set of bytes: one bit of the shims' 256-entry class table (`_ambient_byte_classes`),
/// so membership is one load and one test, with no branch per range. Bytes from 128 up are
/// in none. `ByteClassTests` checks every byte of every class against its definition.
struct ByteClass {
    /// The class's bit in the table.
    let flag: UInt8

    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        _ambient_byte_class(byte) & flag != 0
    }

    /// 0 when `byte` is in the set, nonzero when not: to OR into a loop's verdict with no
    /// branch per byte.
    @inline(__always)
    func outside(_ byte: UInt8) -> UInt8 {
        ~_ambient_byte_class(byte) & flag
    }

    /// W3C Baggage's `baggage-octet`: visible ASCII but `"`, `,`, `;` and `\`.
    static let baggageOctet = ByteClass(flag: 0x01)
    /// A `baggage-octet` that is not `%`: a byte that stands for itself in an escaped value.
    static let plainBaggageOctet = ByteClass(flag: 0x02)
    /// A listed field name's bytes: `a-z`, `0-9`, `-`.
    static let fieldName = ByteClass(flag: 0x04)
    /// RFC 9110's `tchar` (a baggage key's bytes): `a-z`, `A-Z`, `0-9` and ``!#$%&'*+-.^_`|~``.
    static let token = ByteClass(flag: 0x08)
    /// A signing key id's bytes: `a-z`, `A-Z`, `0-9`, `-`, `_`.
    static let keyID = ByteClass(flag: 0x10)
}
