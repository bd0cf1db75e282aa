// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: `UUID()` is a singleton too: tests read predictable ids.

/// The ambient source of UUIDs: call it where code used to call `UUID()`.
///
/// ```swift
/// func makeReminder(_ title: String) -> Reminder {
///     Reminder(id: UUIDGenerator.current(), title: title)
/// }
///
/// withInjected(UUIDGenerator.incrementing) {
///     #expect(makeReminder("a").id.uuidString == "00000000-0000-0000-0000-000000000000")
///     #expect(makeReminder("b").id.uuidString == "00000000-0000-0000-0000-000000000001")
/// }
/// ```
public struct UUIDGenerator: AmbientValue, CustomStringConvertible {
    private let generate: @Sendable () -> UUID
    private let name: String

    /// A generator that calls `generate` for each UUID.
    public init(_ generate: @escaping @Sendable () -> UUID) {
        self.init(name: "UUIDGenerator(custom)", generate)
    }

    private init(name: String, _ generate: @escaping @Sendable () -> UUID) {
        self.generate = generate
        self.name = name
    }

    /// Whether this is ``live``.
    var isLive: Bool {
        name == "UUIDGenerator.live"
    }

    /// A new UUID.
    public func callAsFunction() -> UUID {
        generate()
    }

    /// Random UUIDs: `UUID()`.
    public static let live = UUIDGenerator(name: "UUIDGenerator.live") { UUID() }

    /// The live generator.
    public static var defaultValue: UUIDGenerator {
        live
    }

    /// A new sequence counting up from `00000000-0000-0000-0000-000000000000`, then
    /// `…-000000000001`, and so on (the count in the last 12 hex digits). Each use of
    /// `incrementing` starts its own sequence; copies of one generator share it.
    public static var incrementing: UUIDGenerator {
        let counter = Locked<UInt64>(0)
        return UUIDGenerator(name: "UUIDGenerator.incrementing") {
            let value = counter.withLock { count -> UInt64 in
                defer { count += 1 }
                return count
            }
            return UUID(counting: value)
        }
    }

    /// Always `uuid`.
    public static func constant(_ uuid: UUID) -> UUIDGenerator {
        UUIDGenerator(name: "UUIDGenerator.constant(\(uuid))") { uuid }
    }

    /// Which generator this is.
    public var description: String {
        name
    }
}

extension UUID {
    /// `00000000-0000-0000-0000-` followed by `value` in 12 hex digits.
    init(counting value: UInt64) {
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[15 - index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))
        }
        self.init(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
