import Foundation

extension Clock: CarriableValue {
    /// `"clock"`: a clock travels in the field `ambient-clock`.
    public static var carrierKey: String { "clock" }

    /// `nil` for ``live`` (the other side has its own); `fixed:<seconds since 2001>` for
    /// any other clock, at its ``now`` when encoded: a ``fixed(_:)`` clock arrives as
    /// itself, a ``TestClock``'s or an ``immediate(start:)`` clock arrives frozen at the
    /// sender's current time (the receiver does not see the sender's later advances).
    public var carrierEncoding: String? {
        if case .live = storage { return nil }
        return "fixed:\(now.timeIntervalSinceReferenceDate)"
    }

    /// The fixed clock `fixed:<seconds since 2001>` describes (the seconds as Swift prints
    /// a `Double`, so the date arrives bit for bit).
    public init(carrierEncoding: String) throws {
        guard carrierEncoding.hasPrefix("fixed:"),
            let seconds = Double(carrierEncoding.dropFirst("fixed:".count)), seconds.isFinite
        else {
            throw ClockEncodingError(encoding: carrierEncoding)
        }
        self = .fixed(Date(timeIntervalSinceReferenceDate: seconds))
    }
}

/// A `Clock` carrier encoding that is not `fixed:<seconds since 2001>`.
struct ClockEncodingError: Error, CustomStringConvertible {
    let encoding: String
    var description: String { "expected fixed:<seconds since 2001>, such as fixed:0.0" }
}
