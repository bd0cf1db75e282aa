// SPDX-License-Identifier: Apache-2.0

import _AmbientShims

// Why: only Core and Internals touch the C shims; the swift-log bridges keep an entry from
// looping between the two loggers with this thread's flag.

/// The calling thread's in-flight flag (a C thread-local): set while an entry is on its way
/// from Ambient to swift-log, so `AmbientLogHandler` does not send it back.
package enum LogLoopGuard {
    /// The flag's value: 0 when no entry is in flight.
    @inline(__always)
    package static var current: Int32 {
        _ambient_log_in_flight_get()
    }

    /// Sets the flag to `value`; returns what it was.
    @inline(__always)
    package static func exchange(_ value: Int32) -> Int32 {
        _ambient_log_in_flight_exchange(value)
    }
}
