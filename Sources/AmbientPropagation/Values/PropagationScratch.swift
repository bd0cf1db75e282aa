// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders

// Why: a request's decode works in one allocation, whatever it carries.

/// The bytes one decode or one signature works on, in one buffer: what arrived (each
/// field, or the baggage header, copied once), unescaped text, then the message a signature's
/// code covers. Parts are named by offsets, never pointers, so growing it (a reallocation)
/// invalidates nothing; every read is bounds-checked against what was written. It starts in
/// a buffer the caller lends (on the stack: ``withScratch(_:)``) and moves to the heap only
/// when that is full; freed when the decode ends. A request carrying nothing never makes one.
struct PropagationScratch: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>?
    /// How many bytes were written.
    private(set) var count = 0
    private var capacity = 0
    /// Whether `base` was allocated here (and is freed here), not lent.
    private var owned = false

    /// How many bytes ``withScratch(_:)`` lends from the stack: a request signing a few
    /// short fields fits.
    static let stackBytes = 512

    /// A scratch that writes into `buffer` until it is full. `buffer` must outlive it.
    init(lending buffer: UnsafeMutableBufferPointer<UInt8>) {
        base = buffer.baseAddress
        capacity = buffer.count
    }

    /// Calls `body` with a scratch that starts in ``stackBytes`` of stack.
    static func withScratch<Result>(_ body: (inout PropagationScratch) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: stackBytes) { buffer in
            var scratch = PropagationScratch(lending: buffer)
            return body(&scratch)
        }
    }

    deinit {
        if owned { base?.deallocate() }
    }

    /// Makes room for `extra` more bytes, so the next appends of that many do not move it.
    /// In line: a message is built of many short appends, and almost none of them grows.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(toHold: count + extra) }
    }

    /// Moves to the heap (or a larger heap buffer) with room for at least `needed` bytes.
    @inline(never)
    private mutating func grow(toHold needed: Int) {
        let grownCapacity = max(needed, capacity * 2, 512)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: grownCapacity)
        if let base {
            grown.initialize(from: base, count: count)
            if owned { base.deallocate() }
        }
        base = grown
        capacity = grownCapacity
        owned = true
    }

    mutating func append(_ byte: UInt8) {
        reserve(1)
        base.unsafelyUnwrapped[count] = byte
        count += 1
    }

    /// Appends `bytes`; returns where they now are.
    @discardableResult
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        let start = count
        if let source = bytes.baseAddress, !bytes.isEmpty {
            reserve(bytes.count)
            (base.unsafelyUnwrapped + start).initialize(from: source, count: bytes.count)
        }
        count += bytes.count
        return start..<count
    }

    /// Appends the first `limit` bytes at most of `text`'s UTF-8; returns where they are.
    @discardableResult
    mutating func append(_ text: String, upTo limit: Int = .max) -> Range<Int> {
        // A native string's bytes are read where they are; only a bridged one is copied.
        let inPlace = text.utf8.withContiguousStorageIfAvailable {
            append(UnsafeBufferPointer(rebasing: $0.prefix(limit)))
        }
        if let inPlace {
            return inPlace
        }
        var text = text
        return text.withUTF8 { append(UnsafeBufferPointer(rebasing: $0.prefix(limit))) }
    }

    /// Appends the bytes at `range` (already written) again; returns where the copy is.
    @discardableResult
    mutating func appendCopy(of range: Range<Int>) -> Range<Int> {
        precondition(
            range.lowerBound >= 0 && range.upperBound <= count, "PropagationScratch: \(range) is past \(count)")
        let start = count
        if !range.isEmpty {
            reserve(range.count)
            (base.unsafelyUnwrapped + start).initialize(
                from: base.unsafelyUnwrapped + range.lowerBound, count: range.count)
        }
        count += range.count
        return start..<count
    }

    /// Appends `value` (not negative) in decimal digits.
    mutating func appendDecimal(_ value: Int64) {
        let value = UInt64(max(value, 0))
        if value < 10 {  // most lengths: one digit, no loops
            append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
            return
        }
        var digits = 1
        var scale: UInt64 = 10
        while digits < 20, value >= scale {
            digits += 1
            scale = scale &* 10
        }
        reserve(digits)
        var rest = value
        var position = count + digits
        let base = base.unsafelyUnwrapped
        repeat {
            position -= 1
            base[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        } while rest > 0
        count += digits
    }

    subscript(offset: Int) -> UInt8 {
        precondition(
            offset >= 0 && offset < count, "PropagationScratch: offset \(offset) is past the \(count) bytes written")
        return base.unsafelyUnwrapped[offset]
    }

    /// Calls `body` with the bytes at `range`: valid only inside `body`.
    func withBytes<Result>(
        _ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows
        -> Result
    {
        precondition(
            range.lowerBound >= 0 && range.upperBound <= count, "PropagationScratch: \(range) is past \(count)")
        return try body(UnsafeBufferPointer(start: base.map { $0 + range.lowerBound }, count: range.count))
    }

    /// The bytes at `range` as text they are known to be valid UTF-8 of.
    func text(_ range: Range<Int>) -> String {
        withBytes(range) { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether the bytes at `a` and at `b` are the same.
    func equal(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        a.count == b.count && withBytes(a) { a in withBytes(b) { a.hasSameBytes(as: $0) } }
    }

    /// Whether the bytes at `range` are `bytes`.
    func equal(_ range: Range<Int>, _ bytes: [UInt8]) -> Bool {
        range.count == bytes.count && withBytes(range) { $0.hasSameBytes(as: bytes) }
    }
}
