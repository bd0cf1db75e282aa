// SPDX-License-Identifier: Apache-2.0

import AmbientCore

/// A plain value type: the common case.
struct Tag: AmbientValue, Equatable, CustomStringConvertible {
    var name: String
    static var defaultValue: Tag { Tag(name: "default") }
    init(name: String) { self.name = name }
    init(_ name: String) { self.name = name }
    var description: String { "Tag(\(name))" }
}

/// A second, unrelated type, to check values of different types do not interfere.
struct Number: AmbientValue, Equatable {
    var value: Int
    static let defaultValue = Number(value: 0)
}

/// A reference type, for identity and lifetime checks.
final class Service: AmbientValue {
    let name: String
    init(name: String) { self.name = name }
    static let live = Service(name: "live")
    static var defaultValue: Service { live }
}

/// Over-aligned (16 bytes): the storage must align it.
struct Aligned: AmbientValue, Equatable {
    var vector: SIMD4<Double>
    static var defaultValue: Aligned { Aligned(vector: .zero) }
}

/// Zero-sized.
struct Marker: AmbientValue, Equatable {
    static var defaultValue: Marker { Marker() }
}

/// Larger than an existential's inline buffer, with references inside.
struct Wide: AmbientValue, Equatable {
    var a: String, b: [Int], c: Int, d: Int, e: Int, f: String
    static var defaultValue: Wide { Wide(a: "", b: [], c: 0, d: 0, e: 0, f: "") }
    init(_ seed: Int) { (a, b, c, d, e, f) = ("a\(seed)", [seed, seed], seed, seed + 1, seed + 2, "f\(seed)") }
    init(a: String, b: [Int], c: Int, d: Int, e: Int, f: String) {
        (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
    }
}

/// An enum, to show any Sendable type works.
enum Mode: AmbientValue, Equatable {
    case live, offline
    static var defaultValue: Mode { .live }
}

struct TestFailure: Error, Equatable {
    var code: Int
}

/// A test that needs the value that was current in some other place to equal an expected
/// one; reads all the common types.
struct Snapshot: Equatable, Sendable {
    var tag: String
    var number: Int

    static func take() -> Snapshot {
        Snapshot(tag: Tag.current.name, number: Number.current.value)
    }
}
