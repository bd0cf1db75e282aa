// SPDX-License-Identifier: Apache-2.0

// What the fuzzer checks: each input is one request a stranger could send. The first byte
// picks what the rest is; every mode checks a property, not only "no crash":
//
//   0  ambient-* fields (clock, note, signature, split at 0x00), to a receiver trusting
//      only signed values: nothing is ever applied (no input forges HMAC-SHA256).
//   1  a W3C baggage header, to the same receiver: nothing applied; then to one trusting
//      any sender: whatever is applied decoded from what was sent, never a crash.
//   2  an honest sender's note (the rest, as text), signed: the receiver applies it exactly
//      as sent, or (only when a field is over the receiver's limits) rejects it as too large;
//      then one byte of the carrier changed (position and value from the input's last
//      bytes): the receiver applies the note exactly as sent, or nothing.
import Ambient
import CFuzzerDriver
import Foundation

struct Note: PropagatableValue, Equatable {
    var text: String
    static var defaultValue: Note { Note(text: "") }
    static var propagationKey: String { "note" }
    var propagationEncoding: String? { text }
    init(text: String) { self.text = text }
    init(propagationEncoding: String) throws { text = propagationEncoding }
}

let now = Date(timeIntervalSince1970: 1_800_000_000)
let key = try! PropagationSigningKey(id: "fuzz", secret: Array(repeating: 0x5A, count: 32))
let signer = PropagationSigner.hmacSHA256(key, now: { now })
let signedOnly = PropagationTrust.signed(by: [key], now: { now })
let carried = PropagatedValues(Clock.self, Note.self)

/// The fuzzer's entry point: libFuzzer's driver, which reads libFuzzer's flags from the command
/// line and calls ``fuzz(_:_:)`` with each input. The fuzzer has a main of its own, rather than
/// libFuzzer's, because it is built with `-sanitize=fuzzer,address` passed to swiftc only
/// (`./run`): its C dependencies are then compiled as the benchmarks' release build compiles
/// them, and that build's BoringSSL serves both.
@main
enum PropagationFuzzerMain {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(
            LLVMFuzzerRunDriver(&argc, &argv) { data, count in
                guard let data else { return 0 }
                return fuzz(data, count)
            })
    }
}

/// libFuzzer calls this with each input (`count` bytes at `data`); 0 means "keep going".
func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    guard count > 0 else { return 0 }
    let bytes = UnsafeBufferPointer(start: data, count: count)
    let rest = Array(bytes.dropFirst())
    switch bytes[0] % 3 {
    case 0:
        let parts = rest.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        var fields: [String: String] = [:]
        for (name, value) in zip(["ambient-clock", "ambient-note", "ambient-signature"], parts) {
            fields[name] = value
        }
        let (context, _) = carried.decodeSkippingInvalid(fields, trusting: signedOnly)
        precondition(context.isEmpty, "a forged field was applied: \(fields)")
    case 1:
        let header = ["baggage": String(decoding: rest, as: UTF8.self)]
        let (context, _) = carried.decodeSkippingInvalid(header, as: .baggage, trusting: signedOnly)
        precondition(context.isEmpty, "a forged baggage entry was applied: \(header)")
        _ = carried.decodeSkippingInvalid(header, as: .baggage, trusting: .anySender)
    default:
        guard rest.count >= 2 else { return 0 }
        let text = String(decoding: rest.dropLast(2), as: UTF8.self)
        let format: PropagationFormat = rest[rest.count - 1] & 1 == 0 ? .fields : .baggage
        var fields = carried.encode(InjectionContext().injecting(Note(text: text)), signingWith: signer)
        if format == .baggage {
            fields = carried.encode(InjectionContext().injecting(Note(text: text)), as: .baggage, signingWith: signer)
        }
        let honest = carried.decodeSkippingInvalid(fields, as: format, trusting: signedOnly)
        let limits = PropagationLimits.default
        let withinLimits =
            format == .fields
            ? fields.values.allSatisfy { $0.utf8.count <= limits.maximumFieldBytes }
            : fields["baggage"]!.utf8.count <= limits.maximumBaggageBytes
                && fields["baggage"]!.split(separator: ",").allSatisfy { entry in
                    entry.split(separator: "=", maxSplits: 1).last!.utf8.count <= limits.maximumFieldBytes
                }
        if withinLimits {
            precondition(
                honest.rejections.isEmpty && honest.context[Note.self] == Note(text: text),
                "an honest note was refused: \(honest.rejections)")
        } else {
            precondition(
                honest.context.isEmpty
                    && honest.rejections.contains { if case .tooLarge = $0.reason { true } else { false } },
                "an oversized note was not refused as too large: \(honest.rejections)")
        }
        // Change one byte of one field: the receiver applies the note as sent, or nothing.
        let names = fields.keys.sorted()
        let name = names[Int(rest[rest.count - 2]) % names.count]
        var value = Array(fields[name]!.utf8)
        guard !value.isEmpty else { return 0 }
        let position = Int(rest[rest.count - 2]) * 7 % value.count
        value[position] = rest[rest.count - 1] | 0x20
        fields[name] = String(decoding: value, as: UTF8.self)
        let altered = carried.decodeSkippingInvalid(fields, as: format, trusting: signedOnly).context
        precondition(
            altered.isEmpty || altered[Note.self] == Note(text: text), "an altered note was applied: \(fields)")
    }
    return 0
}
