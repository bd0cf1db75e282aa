import Foundation

extension CarriedValues {
    /// A context injecting every listed type that `fields` carries, from a sender `trust`
    /// accepts.
    ///
    /// ```swift
    /// let context = try carried.decode(request.headers, trusting: .signed(by: [key]))
    /// ```
    ///
    /// - Throws: The first ``CarrierRejection``; nothing is applied then.
    public func decode(
        _ fields: [String: String], as format: CarrierFormat = .fields, trusting trust: CarrierTrust,
        limits: CarrierLimits = .default
    ) throws(CarrierRejection) -> InjectionContext {
        try decode(as: format, trusting: trust, limits: limits) { fields[$0] }
    }

    /// ``decode(_:as:trusting:limits:)`` for any carrier: `field` is called with each field's
    /// lowercased name (`baggage` for ``CarrierFormat/baggage``).
    public func decode(
        as format: CarrierFormat = .fields, trusting trust: CarrierTrust, limits: CarrierLimits = .default,
        field: (String) -> String?
    ) throws(CarrierRejection) -> InjectionContext {
        let (context, rejections) = decodeSkippingInvalid(as: format, trusting: trust, limits: limits, field: field)
        if let first = rejections.first {
            throw first
        }
        return context
    }

    /// A context injecting every listed type whose field `fields` carries from a sender
    /// `trust` accepts and that decodes; a ``CarrierRejection`` for every field dropped
    /// (its type then keeps whatever the receiver has).
    ///
    /// A request that carries none of the fields costs a lookup per listed type and no
    /// allocation.
    public func decodeSkippingInvalid(
        _ fields: [String: String], as format: CarrierFormat = .fields, trusting trust: CarrierTrust,
        limits: CarrierLimits = .default
    ) -> (context: InjectionContext, rejections: [CarrierRejection]) {
        decodeSkippingInvalid(as: format, trusting: trust, limits: limits) { fields[$0] }
    }

    /// ``decodeSkippingInvalid(_:as:trusting:limits:)`` for any carrier: `field` is called
    /// with each field's lowercased name (`baggage` for ``CarrierFormat/baggage``).
    public func decodeSkippingInvalid(
        as format: CarrierFormat = .fields, trusting trust: CarrierTrust, limits: CarrierLimits = .default,
        field: (String) -> String?
    ) -> (context: InjectionContext, rejections: [CarrierRejection]) {
        var arrival = Arrival()
        switch format {
        case .fields:
            for index in fieldNames.indices {
                if let raw = field(fieldNames[index]) {
                    arrival.add(index: index, name: fieldNames[index], raw: Self.bytes(of: raw, limits), limits: limits)
                }
            }
            if let raw = field(signatureField) {
                arrival.addSignature(name: signatureField, raw: Self.bytes(of: raw, limits), limits: limits)
            }
        case .baggage:
            guard let header = field(Self.baggageHeader) else { break }
            switch BaggageHeader.parse(header, limits: limits) {
            case .failure(let rejection):
                arrival.rejections.append(rejection)
            case .success(let baggage):
                arrival.baggage = baggage
                for (key, value) in baggage.entries {
                    let key = baggage.bytes[key]
                    let raw = (bytes: baggage.bytes[value], count: value.count)
                    if key.elementsEqual(signatureFieldBytes) {
                        arrival.addSignature(name: signatureField, raw: raw, limits: limits)
                    } else if let index = fieldNameBytes.firstIndex(where: { key.elementsEqual($0) }) {
                        arrival.add(index: index, name: fieldNames[index], raw: raw, limits: limits)
                    }
                }
            }
        }
        guard !arrival.fields.isEmpty || arrival.signature != nil else {
            return (InjectionContext(), arrival.rejections)
        }
        return apply(arrival, trust: trust, limits: limits, field: field)
    }

    /// A field's bytes, copied only up to one past the limit, and its length as it arrived.
    private static func bytes(of field: String, _ limits: CarrierLimits) -> (bytes: ArraySlice<UInt8>, count: Int) {
        let count = field.utf8.count
        // `Array(utf8)` copies a native string's bytes at once; a prefix would go byte by byte.
        let bytes =
            count <= limits.maximumFieldBytes
            ? Array(field.utf8) : Array(field.utf8.prefix(limits.maximumFieldBytes + 1))
        return (bytes[...], count)
    }

    /// What arrived for the listed types, before any trust: each field once, within limits.
    private struct Arrival {
        var fields: [(index: Int, raw: ArraySlice<UInt8>)] = []
        var signature: ArraySlice<UInt8>?
        var rejections: [CarrierRejection] = []
        var baggage: BaggageHeader?
        /// Fields seen twice: neither copy is kept.
        private var duplicated: Set<Int> = []
        private var signatureDuplicated = false

        mutating func add(
            index: Int, name: String, raw: (bytes: ArraySlice<UInt8>, count: Int), limits: CarrierLimits
        ) {
            if let earlier = fields.firstIndex(where: { $0.index == index }) {
                fields.remove(at: earlier)
                duplicated.insert(index)
                rejections.append(CarrierRejection(field: name, reason: .duplicate, bytes: raw.bytes))
            } else if !duplicated.contains(index), isWithinLimit(name, raw, limits) {
                fields.append((index, raw.bytes))
            }
        }

        mutating func addSignature(name: String, raw: (bytes: ArraySlice<UInt8>, count: Int), limits: CarrierLimits) {
            if signature != nil || signatureDuplicated {
                if !signatureDuplicated {
                    rejections.append(CarrierRejection(field: name, reason: .duplicate, bytes: raw.bytes))
                }
                signature = nil
                signatureDuplicated = true
            } else if isWithinLimit(name, raw, limits) {
                signature = raw.bytes
            }
        }

        /// Whether `raw` fits the limit; reports it when it does not.
        private mutating func isWithinLimit(
            _ name: String, _ raw: (bytes: ArraySlice<UInt8>, count: Int), _ limits: CarrierLimits
        ) -> Bool {
            guard raw.count > limits.maximumFieldBytes else { return true }
            rejections.append(
                CarrierRejection(
                    field: name, reason: .tooLarge(bytes: raw.count, limit: limits.maximumFieldBytes), bytes: raw.bytes)
            )
            return false
        }
    }

    /// Applies what arrived as far as `trust` allows.
    private func apply(
        _ arrival: Arrival, trust: CarrierTrust, limits: CarrierLimits, field: (String) -> String?
    ) -> (context: InjectionContext, rejections: [CarrierRejection]) {
        var rejections = arrival.rejections
        func rejectAll(_ reason: CarrierRejection.Reason) {
            for (index, raw) in arrival.fields {
                rejections.append(CarrierRejection(field: fieldNames[index], reason: reason, bytes: raw))
            }
            if arrival.fields.isEmpty, let signature = arrival.signature {
                rejections.append(CarrierRejection(field: signatureField, reason: reason, bytes: signature))
            }
        }
        var accepted: [(index: Int, raw: ArraySlice<UInt8>, text: String)] = []
        switch trust.kind {
        case .nobody:
            rejectAll(.untrusted)
        case .senders(let isTrusted):
            guard isTrusted(field) else {
                rejectAll(.untrusted)
                break
            }
            for (index, raw) in arrival.fields {
                switch CarrierEscaping.unescape(raw) {
                case .success(let text): accepted.append((index, raw, text))
                case .failure(let reason):
                    rejections.append(CarrierRejection(field: fieldNames[index], reason: reason, bytes: raw))
                }
            }
        case .signed(let verifier):
            guard let signature = arrival.signature else {
                rejectAll(.unsigned)
                break
            }
            switch verify(signature, with: verifier, arrival: arrival, limits: limits, field: field) {
            case .failure(let reason):
                rejectAll(reason)
            case .success(let signed):
                for (index, raw) in arrival.fields {
                    if let text = signed.first(where: { $0.index == index })?.text {
                        accepted.append((index, raw, text))
                    } else {
                        rejections.append(
                            CarrierRejection(field: fieldNames[index], reason: .unsigned, bytes: raw))
                    }
                }
            }
        }
        var context = InjectionContext()
        for (index, raw, text) in accepted {
            do {
                context = try types[index].injecting(decoding: text, into: context)
            } catch {
                rejections.append(
                    CarrierRejection(
                        field: fieldNames[index],
                        reason: .undecodable(typeName: "\(types[index])", message: "\(error)"), bytes: raw))
            }
        }
        return (context, rejections)
    }

    /// The decoded values a valid signature covers, each with the index of its type among
    /// ``types`` (`nil` for a field this receiver does not know), or why it is not valid.
    private func verify(
        _ signatureField: ArraySlice<UInt8>, with verifier: CarrierTrust.Verifier, arrival: Arrival,
        limits: CarrierLimits, field: (String) -> String?
    ) -> Result<[(index: Int?, text: String)], CarrierRejection.Reason> {
        let parsed: Result<CarrierSignature, CarrierRejection.Reason>
        if signatureField.contains(UInt8(ascii: "%")) {
            // Escaped by a hop: read the text it escapes.
            parsed = CarrierEscaping.unescape(signatureField)
                .mapError { _ in .malformedSignature("invalid characters") }
                .flatMap { CarrierSignature.parse(Array($0.utf8)[...]) }
        } else {
            parsed = CarrierSignature.parse(signatureField)
        }
        let signature: CarrierSignature
        switch parsed {
        case .success(let value): signature = value
        case .failure(let reason): return .failure(reason)
        }
        guard let authenticator = verifier.authenticator(for: signature.keyID) else {
            return .failure(.unknownKey(id: signature.keyID))
        }
        let now = verifier.now().timeIntervalSince1970
        let expiry = Double(signature.expiry)
        if expiry + verifier.leewaySeconds < now {
            return .failure(.expired(at: Date(timeIntervalSince1970: expiry)))
        }
        if expiry > now + verifier.maximumLifetimeSeconds + verifier.leewaySeconds {
            return .failure(.lifetimeTooLong(expiresAt: Date(timeIntervalSince1970: expiry)))
        }
        var values: [(name: String, value: String)] = []
        var indices: [Int?] = []
        values.reserveCapacity(signature.fields.count)
        indices.reserveCapacity(signature.fields.count)
        for name in signature.fields {
            let index = fieldNames.firstIndex(of: name)
            guard let raw = signedField(name, index: index, arrival: arrival, limits: limits, field: field),
                case .success(let text) = CarrierEscaping.unescape(raw)
            else {
                // A listed field that is missing, repeated or unreadable: the code cannot cover
                // what arrived.
                return .failure(.signatureMismatch)
            }
            values.append((name, text))
            indices.append(index)
        }
        let message = CarrierSignature.message(keyID: signature.keyID, expiry: signature.expiry, fields: values)
        guard authenticator.isValid(signature.code, for: message) else {
            return .failure(.signatureMismatch)
        }
        return .success(zip(indices, values).map { ($0, $1.value) })
    }

    /// The raw text of the listed field `name`: one of the listed types' (as kept on
    /// arrival), or a field this receiver does not know (a newer sender's type) looked up in
    /// the carrier, which the code must still cover.
    private func signedField(
        _ name: String, index: Int?, arrival: Arrival, limits: CarrierLimits, field: (String) -> String?
    ) -> ArraySlice<UInt8>? {
        if let index {
            return arrival.fields.first { $0.index == index }?.raw
        }
        guard name != signatureField else { return nil }
        if let baggage = arrival.baggage {
            return baggage.value(of: Array(name.utf8))
        }
        guard let raw = field(name), raw.utf8.count <= limits.maximumFieldBytes else { return nil }
        return ArraySlice(raw.utf8)
    }
}
