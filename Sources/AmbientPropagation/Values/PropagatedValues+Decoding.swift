// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation

// Why: what arrives from another process is read once, bounded, and applied only from a trusted sender.

extension PropagatedValues {
    /// A context injecting every listed type that `fields` carries, from a sender `trust`
    /// accepts.
    ///
    /// ```swift
    /// let context = try propagated.decode(request.headers, trusting: .signed(by: [key]))
    /// ```
    ///
    /// - Throws: The first ``PropagationRejection``; nothing is applied then.
    public func decode(
        _ fields: [String: String], as format: PropagationFormat = .fields, trusting trust: PropagationTrust,
        limits: PropagationLimits = .default
    ) throws(PropagationRejection) -> InjectionContext {
        try Self.allOrNothing(decodeSkippingInvalid(fields, as: format, trusting: trust, limits: limits))
    }

    /// ``decode(_:as:trusting:limits:)`` for any transport: `field` is called with each field's
    /// lowercased name (`baggage` for ``PropagationFormat/baggage``).
    public func decode(
        as format: PropagationFormat = .fields, trusting trust: PropagationTrust, limits: PropagationLimits = .default,
        field: (String) -> String?
    ) throws(PropagationRejection) -> InjectionContext {
        try Self.allOrNothing(decodeSkippingInvalid(as: format, trusting: trust, limits: limits, field: field))
    }

    /// The context decoded, or the first rejection, thrown: `decode` applies all or nothing.
    private static func allOrNothing(
        _ decoded: (context: InjectionContext, rejections: [PropagationRejection])
    ) throws(PropagationRejection) -> InjectionContext {
        if let first = decoded.rejections.first {
            throw first
        }
        return decoded.context
    }

    /// A context injecting every listed type whose field `fields` carries from a sender
    /// `trust` accepts and that decodes; a ``PropagationRejection`` for every field dropped
    /// (its type then keeps whatever the receiver has).
    ///
    /// A request that carries none of the fields costs one pass over the names in `fields`
    /// (a name of a length no listed field has is not compared; nothing is hashed) and no
    /// allocation.
    public func decodeSkippingInvalid(
        _ fields: [String: String], as format: PropagationFormat = .fields, trusting trust: PropagationTrust,
        limits: PropagationLimits = .default
    ) -> (context: InjectionContext, rejections: [PropagationRejection]) {
        func lookup(_ name: String) -> String? { fields[name] }
        // A name a pass reads costs a few instructions, a hashed lookup a few hundred: one
        // pass finds every listed field sooner, unless the request has very many others.
        guard fields.count <= 16 * (types.count + 1) else {
            return decodeSkippingInvalid(
                as: format, trusting: trust, limits: limits, listed: { lookup(fieldName(at: $0)) }, field: lookup)
        }
        if format == .baggage {
            // One header: found by the same pass, its name compared only where the length is.
            let name = Self.baggageHeader
            var header: String?
            for (key, value) in fields where key.utf8.count == name.utf8.count && key == name {
                header = value
                break
            }
            guard let header else { return (InjectionContext(), []) }
            return decodeSkippingInvalid(
                as: format, trusting: trust, limits: limits, listed: { _ in nil },
                field: { $0 == name ? header : lookup($0) })
        }
        return withUnsafeTemporaryAllocation(of: String?.self, capacity: types.count + 1) { found in
            found.initialize(repeating: nil)
            guard collectListed(from: fields, into: found) > 0 else {
                return (InjectionContext(), [])  // and nothing to deinitialize
            }
            // A loop, not `deinitialize()`: that destroys a run of a dynamic count through
            // the runtime, one value witness call per element.
            defer { for slot in found.indices { found[slot] = nil } }
            // Each is asked for once: taken, not copied.
            return decodeSkippingInvalid(
                as: format, trusting: trust, limits: limits, listed: { found[$0 ?? found.count - 1].take() },
                field: lookup)
        }
    }

    /// Puts each listed type's field in `fields` at its index in `found`, the signature's
    /// last, in one pass over the names (a name of a length none of them has is not read);
    /// returns how many it found.
    private func collectListed(from fields: [String: String], into found: UnsafeMutableBufferPointer<String?>) -> Int {
        let listedLengths = nameLengths
        let names = fieldNames
        var count = 0
        for (name, value) in fields {
            let length = name.utf8.count
            guard length < listedLengths.count, listedLengths[length] else { continue }
            // `==` only where the lengths agree: for unequal strings it takes a slow path.
            var index = 0
            while index < names.count, names[index].utf8.count != length || names[index] != name { index += 1 }
            if index == names.count, signatureField.utf8.count != length || name != signatureField { continue }
            found[index] = value
            count += 1
        }
        return count
    }

    /// The field name of the listed type at `index`, or the signature's for `nil`.
    private func fieldName(at index: Int?) -> String {
        index.map { fieldNames[$0] } ?? signatureField
    }

    /// ``decodeSkippingInvalid(_:as:trusting:limits:)`` for any transport: `field` is called
    /// with each field's lowercased name (`baggage` for ``PropagationFormat/baggage``).
    public func decodeSkippingInvalid(
        as format: PropagationFormat = .fields, trusting trust: PropagationTrust, limits: PropagationLimits = .default,
        field: (String) -> String?
    ) -> (context: InjectionContext, rejections: [PropagationRejection]) {
        decodeSkippingInvalid(
            as: format, trusting: trust, limits: limits, listed: { field(fieldName(at: $0)) }, field: field)
    }

    /// The decode, with `listed` giving the field of the listed type at an index (the
    /// signature's for `nil`), asked once at most for each, and `field` any field by name.
    private func decodeSkippingInvalid(
        as format: PropagationFormat, trusting trust: PropagationTrust, limits: PropagationLimits,
        listed: (Int?) -> String?, field: (String) -> String?
    ) -> (context: InjectionContext, rejections: [PropagationRejection]) {
        // The first field that arrived, found with nothing set up: a request carrying none
        // costs its lookups and no allocation.
        var first: (index: Int?, text: String)?
        switch format {
        case .fields:
            for index in 0..<types.count {
                if let text = listed(index) {
                    first = (index, text)
                    break
                }
            }
            if first == nil, let text = listed(nil) {
                first = (nil, text)
            }
        case .baggage:
            if let header = field(Self.baggageHeader) {
                first = (nil, header)
            }
        }
        guard let first else { return (InjectionContext(), []) }
        // One stack allocation for both: each listed type's arrival, then the scratch's
        // first bytes (a signed request of a few short fields never reaches the heap).
        let fieldBytes = MemoryLayout<ArrivedField>.stride * types.count
        return withUnsafeTemporaryAllocation(
            byteCount: fieldBytes + PropagationScratch.stackBytes, alignment: MemoryLayout<ArrivedField>.alignment
        ) { raw in
            let arrived = UnsafeMutableRawBufferPointer(rebasing: raw[..<fieldBytes]).bindMemory(to: ArrivedField.self)
            arrived.initialize(repeating: ArrivedField())  // trivial: nothing to deinitialize
            var arrival = Arrival(fields: arrived)
            var scratch = PropagationScratch(
                lending: UnsafeMutableRawBufferPointer(rebasing: raw[fieldBytes...]).bindMemory(to: UInt8.self))
            switch format {
            case .fields: receiveFields(from: first, &arrival, &scratch, limits: limits, listed: listed)
            case .baggage: receiveBaggage(first.text, &arrival, &scratch, limits: limits)
            }
            guard arrival.fields.contains(where: { $0.state == .present }) || arrival.signature.state == .present
            else {
                return (InjectionContext(), arrival.rejections)
            }
            return apply(&arrival, &scratch, trust: trust, limits: limits, field: field)
        }
    }

    /// One listed type's field (or the signature) as it arrived: where its bytes are in the
    /// decode's ``PropagationScratch``, and, once a valid signature covers it, its decoded bytes.
    private struct ArrivedField {
        enum State { case absent, present, refused }
        /// `refused`: over the limits or repeated, and already reported.
        var state = State.absent
        var raw: Range<Int> = 0..<0
        var decoded: Range<Int>?
    }

    /// What arrived for the listed types, before any trust: each field once, within limits.
    private struct Arrival {
        let fields: UnsafeMutableBufferPointer<ArrivedField>
        var signature = ArrivedField()
        var rejections: [PropagationRejection] = []
        /// Where the baggage header is, when the transport is one.
        var baggage: Range<Int>?

        init(fields: UnsafeMutableBufferPointer<ArrivedField>) {
            self.fields = fields
        }

        /// Notes the field of the listed type at `index` (the signature for `nil`, named from
        /// `carried` only when it is reported) at `raw`; a second copy refuses both, reported
        /// once. `carried` is borrowed, not captured: a closure naming the field would be a
        /// retain per field.
        mutating func receive(
            _ index: Int?, of carried: borrowing PropagatedValues, raw: Range<Int>, arrivedCount: Int? = nil,
            in scratch: borrowing PropagationScratch, limits: PropagationLimits
        ) {
            var field = index.map { fields[$0] } ?? signature
            defer {
                if let index { fields[index] = field } else { signature = field }
            }
            switch field.state {
            case .present:
                field.state = .refused
                rejections.append(
                    scratch.withBytes(raw) {
                        PropagationRejection(field: carried.fieldName(at: index), reason: .duplicate, bytes: $0)
                    })
            case .refused:
                break
            case .absent:
                let count = arrivedCount ?? raw.count
                guard count <= limits.maximumFieldBytes else {
                    field.state = .refused
                    let reason = PropagationRejection.Reason.tooLarge(bytes: count, limit: limits.maximumFieldBytes)
                    rejections.append(
                        scratch.withBytes(raw) {
                            PropagationRejection(field: carried.fieldName(at: index), reason: reason, bytes: $0)
                        })
                    return
                }
                field = ArrivedField(state: .present, raw: raw)
            }
        }
    }

    /// Looks up each listed type's field after `first` (the first that arrived) and the
    /// signature; copies what is within limits.
    private func receiveFields(
        from first: (index: Int?, text: String), _ arrival: inout Arrival, _ scratch: inout PropagationScratch,
        limits: PropagationLimits, listed: (Int?) -> String?
    ) {
        func receive(_ index: Int?, _ text: String) {
            // Copied only up to one past the limit: enough to refuse it and show an excerpt.
            let raw = scratch.append(text, upTo: limits.maximumFieldBytes + 1)
            arrival.receive(
                index, of: self, raw: raw, arrivedCount: text.utf8.count, in: scratch, limits: limits)
        }
        receive(first.index, first.text)
        guard let firstIndex = first.index else { return }  // the signature: no listed type's field came
        for index in (firstIndex + 1)..<types.count {
            if let text = listed(index) { receive(index, text) }
        }
        if let text = listed(nil) { receive(nil, text) }
    }

    /// Reads the baggage header's entries for the listed types and the signature; refuses
    /// the whole header when it is over the limits or not a baggage list.
    private func receiveBaggage(
        _ header: String, _ arrival: inout Arrival, _ scratch: inout PropagationScratch, limits: PropagationLimits
    ) {
        let count = header.utf8.count
        guard count <= limits.maximumBaggageBytes else {
            arrival.rejections.append(
                PropagationRejection(
                    field: Self.baggageHeader, reason: .tooLarge(bytes: count, limit: limits.maximumBaggageBytes),
                    bytes: header.utf8))
            return
        }
        let range = scratch.append(header)
        arrival.baggage = range
        // Read once, not for each entry: each read of the storage's arrays is a retain.
        let signatureBytes = signatureFieldBytes
        let nameBytes = fieldNameBytes
        let refusal = BaggageHeader.forEachEntry(range, in: scratch, limits: limits) { key, value in
            if scratch.equal(key, signatureBytes) {
                arrival.receive(nil, of: self, raw: value, in: scratch, limits: limits)
            } else if let index = scratch.withBytes(key, { key in nameBytes.firstIndex { key.hasSameBytes(as: $0) } }) {
                arrival.receive(index, of: self, raw: value, in: scratch, limits: limits)
            }
        }
        if let refusal {
            // Nothing from a header that is not one: forget what was read of it.
            arrival = Arrival(fields: arrival.fields)
            arrival.fields.update(repeating: ArrivedField())
            arrival.rejections.append(
                PropagationRejection(field: Self.baggageHeader, reason: refusal, bytes: header.utf8))
        }
    }

    /// Applies what arrived as far as `trust` allows.
    private func apply(
        _ arrival: inout Arrival, _ scratch: inout PropagationScratch, trust: PropagationTrust,
        limits: PropagationLimits,
        field: (String) -> String?
    ) -> (context: InjectionContext, rejections: [PropagationRejection]) {
        // Helpers are methods taking what they change, not local functions capturing it: a
        // captured variable would be boxed on the heap for every request.
        var rejections = arrival.rejections
        let source: TextSource
        switch trust.kind {
        case .nobody:
            rejectAll(.untrusted, arrival, scratch, into: &rejections)
            return (InjectionContext(), rejections)
        case .senders:
            guard trust.isTrusted!(field) else {
                rejectAll(.untrusted, arrival, scratch, into: &rejections)
                return (InjectionContext(), rejections)
            }
            source = .unescaped
        case .signed:
            guard arrival.signature.state == .present else {
                rejectAll(.unsigned, arrival, scratch, into: &rejections)
                return (InjectionContext(), rejections)
            }
            if let reason = verify(
                &arrival, &scratch, with: trust.verifier!, limits: limits, field: field)
            {
                rejectAll(reason, arrival, scratch, into: &rejections)
                return (InjectionContext(), rejections)
            }
            source = .signed
        }
        // One storage for every value that decodes.
        let fields = arrival.fields
        let room = InjectionContext.room(
            for: fields.indices.lazy.filter { fields[$0].state == .present }.map { types[$0] })
        let context = InjectionContext.building(room: room) { builder in
            for index in fields.indices where fields[index].state == .present {
                switch text(of: fields[index], from: source, in: &scratch) {
                case .success(let text):
                    do {
                        try types[index].store(decoding: text, into: &builder)
                    } catch {
                        let reason = PropagationRejection.Reason.undecodable(
                            typeName: "\(types[index])", message: "\(error)")
                        rejections.append(rejection(index, reason, arrival, scratch))
                    }
                case .failure(let reason):
                    rejections.append(rejection(index, reason, arrival, scratch))
                }
            }
        }
        return (context, rejections)
    }

    /// Where a present field's text comes from, once trust allows it.
    private enum TextSource {
        case unescaped
        case signed
    }

    /// The text of a present field, or why it has none.
    private func text(
        of field: ArrivedField, from source: TextSource, in scratch: inout PropagationScratch
    ) -> Result<String, PropagationRejection.Reason> {
        switch source {
        case .unescaped:
            return PropagationEscaping.text(of: field.raw, in: &scratch)
        case .signed:
            guard let decoded = field.decoded else { return .failure(.unsigned) }
            if decoded.count == field.raw.count {
                return .success(scratch.text(decoded))  // no escapes: visible ASCII
            }
            return scratch.withBytes(decoded) { String(validating: $0, as: UTF8.self) }.map { .success($0) }
                ?? .failure(.invalidEscape)
        }
    }

    /// The report of the listed type at `index`'s field, dropped for `reason`.
    private func rejection(
        _ index: Int, _ reason: PropagationRejection.Reason, _ arrival: borrowing Arrival,
        _ scratch: borrowing PropagationScratch
    ) -> PropagationRejection {
        scratch.withBytes(arrival.fields[index].raw) {
            PropagationRejection(field: fieldNames[index], reason: reason, bytes: $0)
        }
    }

    /// Reports every present field dropped for `reason`; the signature too when it came alone.
    private func rejectAll(
        _ reason: PropagationRejection.Reason, _ arrival: borrowing Arrival, _ scratch: borrowing PropagationScratch,
        into rejections: inout [PropagationRejection]
    ) {
        var anyPresent = false
        for index in arrival.fields.indices where arrival.fields[index].state == .present {
            anyPresent = true
            rejections.append(rejection(index, reason, arrival, scratch))
        }
        if !anyPresent, arrival.signature.state == .present {
            rejections.append(
                scratch.withBytes(arrival.signature.raw) {
                    PropagationRejection(field: signatureField, reason: reason, bytes: $0)
                })
        }
    }

    /// Checks the signature that arrived against `verifier`: `nil` when it is valid (each
    /// field it covers then has its decoded bytes), or why it is not. The code is computed
    /// over the message built in `scratch`, from the bytes as they arrived: no text is made
    /// for a field before its signature holds.
    private func verify(
        _ arrival: inout Arrival, _ scratch: inout PropagationScratch, with verifier: PropagationTrust.Verifier,
        limits: PropagationLimits, field: (String) -> String?
    ) -> PropagationRejection.Reason? {
        let raw = arrival.signature.raw
        var parsed = PropagationSignature.parse(raw, in: scratch)
        // A '%' is in none of a signature's parts, so one that parses as it arrived has none;
        // one that does not may have been escaped by a hop: read the text it escapes.
        if case .failure = parsed, scratch.withBytes(raw, { $0.contains(UInt8(ascii: "%")) }) {
            guard case .success(let count) = scratch.withBytes(raw, PropagationEscaping.unescapedCount) else {
                return .malformedSignature("invalid characters")
            }
            parsed = PropagationSignature.parse(
                PropagationEscaping.appendUnescaped(raw, count: count, to: &scratch), in: scratch)
        }
        let signature: PropagationSignature
        switch parsed {
        case .success(let value): signature = value
        case .failure(let reason): return reason
        }
        guard let authenticator = scratch.withBytes(signature.keyID, verifier.authenticator(for:)) else {
            return .unknownKey(id: scratch.text(signature.keyID))
        }
        let now = verifier.secondsSince1970()
        let expiry = Double(signature.expiry)
        if expiry + verifier.leewaySeconds < now {
            return .expired(at: Date(timeIntervalSince1970: expiry))
        }
        if expiry > now + verifier.maximumLifetimeSeconds + verifier.leewaySeconds {
            return .lifetimeTooLong(expiresAt: Date(timeIntervalSince1970: expiry))
        }
        // Where each listed field arrived: a listed type's (as kept on arrival), or a field
        // this receiver does not know (a newer sender's type), which the code must still
        // cover: those are copied into `scratch` first, so the message after them is one run.
        let listed = signature.nameCount
        return withUnsafeTemporaryAllocation(of: ListedField.self, capacity: listed) { fields in
            // Each listed name, split at its '/' (the parse checked them): a listed type's
            // field (as kept on arrival) or one this receiver does not know (see above).
            var count = 0
            var start = signature.names.lowerBound
            while count < listed {
                let name =
                    start..<scratch.withBytes(start..<signature.names.upperBound) { rest in
                        start + (rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.count)
                    }
                start = name.upperBound + 1
                if let index = scratch.withBytes(name, fieldIndex(named:)) {
                    // A listed field missing or refused: the code cannot cover what arrived.
                    guard arrival.fields[index].state == .present else { return .signatureMismatch }
                    fields.initializeElement(
                        at: count, to: ListedField(name: name, index: index, raw: arrival.fields[index].raw))
                } else if let raw = unknownField(
                    name, arrival: arrival, scratch: &scratch, limits: limits, field: field)
                {
                    fields.initializeElement(at: count, to: ListedField(name: name, index: nil, raw: raw))
                } else {
                    return .signatureMismatch
                }
                count += 1
            }
            let messageStart = scratch.count
            PropagationSignature.appendMessageHead(
                keyID: signature.keyID, expiry: signature.expiry, expiryDigits: signature.expiryDigits, to: &scratch)
            for listed in fields[..<count] {
                guard case .success(let length) = scratch.withBytes(listed.raw, PropagationEscaping.unescapedCount)
                else {
                    return .signatureMismatch  // unreadable: the code cannot cover it
                }
                PropagationSignature.appendMessageField(name: listed.name, count: length, to: &scratch)
                let decoded = PropagationEscaping.appendUnescaped(listed.raw, count: length, to: &scratch)
                PropagationSignature.appendMessageFieldEnd(to: &scratch)
                if let index = listed.index { arrival.fields[index].decoded = decoded }
            }
            let message = messageStart..<scratch.count
            let valid = signature.withCode { code in
                scratch.withBytes(message) { authenticator.isValid(code, for: UnsafeRawBufferPointer($0)) }
            }
            return valid ? nil : .signatureMismatch
        }
    }

    /// A field a signature lists: its name (in the signature), the listed type's index
    /// (`nil` for a field this receiver does not know), and where its raw text is.
    private struct ListedField {
        var name: Range<Int>
        var index: Int?
        var raw: Range<Int>
    }

    /// The index among ``types`` of the type whose field is named `name`.
    private func fieldIndex(named name: UnsafeBufferPointer<UInt8>) -> Int? {
        fieldNameBytes.firstIndex { name.hasSameBytes(as: $0) }
    }

    /// Where the raw text of a listed field this receiver does not know is (copied into
    /// `scratch` from the transport), or `nil` when it is missing, repeated, over the limit or
    /// the signature itself.
    private func unknownField(
        _ name: Range<Int>, arrival: Arrival, scratch: inout PropagationScratch, limits: PropagationLimits,
        field: (String) -> String?
    ) -> Range<Int>? {
        guard !scratch.equal(name, signatureFieldBytes) else { return nil }
        if let baggage = arrival.baggage {
            let raw = BaggageHeader.value(of: name, in: baggage, of: scratch, limits: limits)
            return raw.flatMap { $0.count <= limits.maximumFieldBytes ? $0 : nil }
        }
        guard let text = field(scratch.text(name)), text.utf8.count <= limits.maximumFieldBytes else { return nil }
        return scratch.append(text)
    }
}
