// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation

// Why: a test can fix a server's clock by sending it, signed; the live clock never travels.

extension Clock: PropagatableValue {
    /// `"clock"`: a clock travels in the field `ambient-clock`.
    public static var propagationKey: String { "clock" }

    /// `nil` for ``live`` (the other side has its own); `fixed:<seconds since 2001>` for
    /// any other clock, at its ``now`` when encoded: a ``fixed(_:)`` clock arrives as
    /// itself, a `TestClock`'s or an ``immediate(start:)`` clock arrives frozen at the
    /// sender's current time (the receiver does not see the sender's later advances).
    public var propagationEncoding: String? {
        if isLive { return nil }
        return "fixed:\(now.timeIntervalSinceReferenceDate)"
    }

    /// The fixed clock `fixed:<seconds since 2001>` describes (the seconds as Swift prints
    /// a `Double`, so the date arrives bit for bit).
    public init(propagationEncoding: String) throws {
        // On the UTF-8 bytes: `hasPrefix` and `dropFirst` on characters cost a request more
        // than the number's parse.
        var text = propagationEncoding
        let seconds = text.withUTF8 { bytes -> Double? in
            guard bytes.count > 6, bytes[0] == UInt8(ascii: "f"), bytes[1] == UInt8(ascii: "i"),
                bytes[2] == UInt8(ascii: "x"), bytes[3] == UInt8(ascii: "e"), bytes[4] == UInt8(ascii: "d"),
                bytes[5] == UInt8(ascii: ":")
            else { return nil }
            let number = UnsafeBufferPointer(rebasing: bytes[6...])
            return DecimalText.shortDouble(number) ?? Double(String(decoding: number, as: UTF8.self))
        }
        guard let seconds, seconds.isFinite else {
            throw ClockEncodingError(encoding: propagationEncoding)
        }
        self = .fixed(Date(timeIntervalSinceReferenceDate: seconds))
    }
}

/// A `Clock` propagation encoding that is not `fixed:<seconds since 2001>`.
struct ClockEncodingError: Error, CustomStringConvertible {
    let encoding: String
    var description: String { "expected fixed:<seconds since 2001>, such as fixed:0.0" }
}
