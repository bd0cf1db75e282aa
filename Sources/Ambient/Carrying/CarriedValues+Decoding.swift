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
                    arrival.add(index: index, name: fieldNames[index], raw: raw[...], limits: limits)
                }
            }
            if let raw = field(signatureField) {
                arrival.addSignature(name: signatureField, raw: raw[...], limits: limits)
            }
        case .baggage:
            guard let header = field(Self.baggageHeader) else { break }
            switch BaggageHeader.parse(header, limits: limits) {
            case .failure(let rejection):
                arrival.rejections.append(rejection)
            case .success(let baggage):
                arrival.baggage = baggage
                for (key, value) in baggage.entries {
                    if key == signatureField {
                        arrival.addSignature(name: signatureField, raw: value, limits: limits)
                    } else if let index = fieldNames.firstIndex(where: { key == $0 }) {
                        arrival.add(index: index, name: fieldNames[index], raw: value, limits: limits)
                    }
                }
            }
        }
        guard !arrival.fields.isEmpty || arrival.signature != nil else {
            return (InjectionContext(), arrival.rejections)
        }
        return apply(arrival, trust: trust, field: field)
    }

    /// What arrived for the listed types, before any trust: each field once, within limits.
    private struct Arrival {
        var fields: [(index: Int, raw: Substring)] = []
        var signature: Substring?
        var rejections: [CarrierRejection] = []
        var baggage: BaggageHeader?
        /// Fields seen twice: neither copy is kept.
        private var duplicated: Set<Int> = []
        private var signatureDuplicated = false

        mutating func add(index: Int, name: String, raw: Substring, limits: CarrierLimits) {
            if let earlier = fields.firstIndex(where: { $0.index == index }) {
                fields.remove(at: earlier)
                duplicated.insert(index)
                rejections.append(CarrierRejection(field: name, reason: .duplicate, arrived: raw.utf8))
            } else if duplicated.contains(index) {
                return
            } else if raw.utf8.count > limits.maximumFieldBytes {
                rejections.append(
                    CarrierRejection(
                        field: name, reason: .tooLarge(bytes: raw.utf8.count, limit: limits.maximumFieldBytes),
                        arrived: raw.utf8))
            } else {
                fields.append((index, raw))
            }
        }

        mutating func addSignature(name: String, raw: Substring, limits: CarrierLimits) {
            if signature != nil || signatureDuplicated {
                if !signatureDuplicated {
                    rejections.append(CarrierRejection(field: name, reason: .duplicate, arrived: raw.utf8))
                }
                signature = nil
                signatureDuplicated = true
            } else if raw.utf8.count > limits.maximumFieldBytes {
                rejections.append(
                    CarrierRejection(
                        field: name, reason: .tooLarge(bytes: raw.utf8.count, limit: limits.maximumFieldBytes),
                        arrived: raw.utf8))
            } else {
                signature = raw
            }
        }
    }

    /// Applies what arrived as far as `trust` allows.
    private func apply(
        _ arrival: Arrival, trust: CarrierTrust, field: (String) -> String?
    ) -> (context: InjectionContext, rejections: [CarrierRejection]) {
        var rejections = arrival.rejections
        func rejectAll(_ reason: CarrierRejection.Reason) {
            for (index, raw) in arrival.fields {
                rejections.append(CarrierRejection(field: fieldNames[index], reason: reason, arrived: raw.utf8))
            }
            if arrival.fields.isEmpty, let signature = arrival.signature {
                rejections.append(CarrierRejection(field: signatureField, reason: reason, arrived: signature.utf8))
            }
        }
        var accepted: [(index: Int, raw: Substring, text: String)] = []
        switch trust.kind {
        case .nobody:
            rejectAll(.untrusted)
        case .senders(let isTrusted):
            guard isTrusted(field) else {
                rejectAll(.untrusted)
                break
            }
            for (index, raw) in arrival.fields {
                switch CarrierEscaping.unescape(raw.utf8) {
                case .success(let text): accepted.append((index, raw, text))
                case .failure(let reason):
                    rejections.append(CarrierRejection(field: fieldNames[index], reason: reason, arrived: raw.utf8))
                }
            }
        case .signed(let verifier):
            guard let signature = arrival.signature else {
                rejectAll(.unsigned)
                break
            }
            switch verify(signature, with: verifier, arrival: arrival, field: field) {
            case .failure(let reason):
                rejectAll(reason)
            case .success(let signed):
                for (index, raw) in arrival.fields {
                    if let text = signed[fieldNames[index]] {
                        accepted.append((index, raw, text))
                    } else {
                        rejections.append(
                            CarrierRejection(field: fieldNames[index], reason: .unsigned, arrived: raw.utf8))
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
                        reason: .undecodable(typeName: "\(types[index])", message: "\(error)"), arrived: raw.utf8))
            }
        }
        return (context, rejections)
    }

    /// The decoded values a valid signature covers, by field name, or why it is not valid.
    private func verify(
        _ signatureField: Substring, with verifier: CarrierTrust.Verifier, arrival: Arrival,
        field: (String) -> String?
    ) -> Result<[String: String], CarrierRejection.Reason> {
        let signature: CarrierSignature
        switch CarrierEscaping.unescape(signatureField.utf8).flatMap(CarrierSignature.parse) {
        case .success(let parsed): signature = parsed
        case .failure(let reason):
            return .failure(reason == .invalidEscape ? .malformedSignature("invalid characters") : reason)
        }
        guard let authenticator = verifier.authenticator(for: signature.keyID) else {
            return .failure(.unknownKey(id: signature.keyID))
        }
        let now = verifier.now().timeIntervalSince1970
        let expiry = Double(signature.expiry)
        if expiry + verifier.leeway.timeInterval < now {
            return .failure(.expired(at: Date(timeIntervalSince1970: expiry)))
        }
        if expiry > now + verifier.maximumLifetime.timeInterval + verifier.leeway.timeInterval {
            return .failure(.lifetimeTooLong(expiresAt: Date(timeIntervalSince1970: expiry)))
        }
        var values: [(name: String, value: String)] = []
        values.reserveCapacity(signature.fields.count)
        for name in signature.fields {
            guard let raw = signedField(name, arrival: arrival, field: field),
                case .success(let text) = CarrierEscaping.unescape(raw.utf8)
            else {
                // A listed field that is missing, repeated or unreadable: the code cannot cover
                // what arrived.
                return .failure(.signatureMismatch)
            }
            values.append((name, text))
        }
        let message = CarrierSignature.message(keyID: signature.keyID, expiry: signature.expiry, fields: values)
        guard authenticator.isValid(signature.code, for: message) else {
            return .failure(.signatureMismatch)
        }
        return .success(Dictionary(values, uniquingKeysWith: { first, _ in first }))
    }

    /// The raw text of the listed field `name`: one of the listed types' (as kept on
    /// arrival), or a field this receiver does not know (a newer sender's type) looked up in
    /// the carrier, which the code must still cover.
    private func signedField(_ name: String, arrival: Arrival, field: (String) -> String?) -> Substring? {
        if let index = fieldNames.firstIndex(of: name) {
            return arrival.fields.first { $0.index == index }?.raw
        }
        guard name != signatureField else { return nil }
        if let baggage = arrival.baggage {
            let matches = baggage.entries.filter { $0.key == name }
            return matches.count == 1 ? matches[0].value : nil
        }
        return field(name)?[...]
    }
}
