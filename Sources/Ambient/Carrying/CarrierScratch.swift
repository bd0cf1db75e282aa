// SPDX-License-Identifier: Apache-2.0

// Why: a request's decode works in one allocation, whatever it carries.

/// The bytes one decode or one signature works on, in one allocation: what arrived (each
/// field, or the baggage header, copied once), unescaped text, then the message a signature's
/// code covers. Parts are named by offsets, never pointers, so growing it (a reallocation)
/// invalidates nothing; every read is bounds-checked against what was written. Freed when
/// the decode ends; a request carrying nothing never allocates it.
struct CarrierScratch: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>?
    /// How many bytes were written.
    private(set) var count = 0
    private var capacity = 0

    init() {}

    deinit {
        base?.deallocate()
    }

    /// Makes room for `extra` more bytes, so the next appends of that many do not move it.
    mutating func reserve(_ extra: Int) {
        let needed = count + extra
        guard needed > capacity else { return }
        let grownCapacity = max(needed, capacity * 2, 512)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: grownCapacity)
        if let base {
            grown.initialize(from: base, count: count)
            base.deallocate()
        }
        base = grown
        capacity = grownCapacity
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
        var text = text
        return text.withUTF8 { append(UnsafeBufferPointer(rebasing: $0.prefix(limit))) }
    }

    /// Appends the bytes at `range` (already written) again; returns where the copy is.
    @discardableResult
    mutating func appendCopy(of range: Range<Int>) -> Range<Int> {
        precondition(
            range.lowerBound >= 0 && range.upperBound <= count, "CarrierScratch: \(range) is past \(count)")
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
        var rest = UInt64(max(value, 0))
        // Up to 20 digits, written from the end of a buffer on the stack.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var start = buffer.count
            repeat {
                start -= 1
                buffer.initializeElement(at: start, to: UInt8(ascii: "0") + UInt8(rest % 10))
                rest /= 10
            } while rest > 0
            append(UnsafeBufferPointer(rebasing: buffer[start...]))
        }
    }

    subscript(offset: Int) -> UInt8 {
        precondition(
            offset >= 0 && offset < count, "CarrierScratch: offset \(offset) is past the \(count) bytes written")
        return base.unsafelyUnwrapped[offset]
    }

    /// Calls `body` with the bytes at `range`: valid only inside `body`.
    func withBytes<Result>(
        _ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows
        -> Result
    {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "CarrierScratch: \(range) is past \(count)")
        return try body(UnsafeBufferPointer(start: base.map { $0 + range.lowerBound }, count: range.count))
    }

    /// The bytes at `range` as text they are known to be valid UTF-8 of.
    func text(_ range: Range<Int>) -> String {
        withBytes(range) { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether the bytes at `a` and at `b` are the same.
    func equal(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
        a.count == b.count && withBytes(a) { a in withBytes(b) { b in a.elementsEqual(b) } }
    }

    /// Whether the bytes at `range` are `bytes`.
    func equal(_ range: Range<Int>, _ bytes: [UInt8]) -> Bool {
        range.count == bytes.count && withBytes(range) { $0.elementsEqual(bytes) }
    }
}
