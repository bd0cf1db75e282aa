// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders

// Why: a sender writes the values it injects as fields (signed when it has a key), for the next hop.

extension PropagatedValues {
    /// The fields for the values `context` injects (one per listed type it injects whose
    /// encoding is not `nil`), escaped, and signed when `signer` is given: a dictionary of
    /// header names to values (with ``PropagationFormat/baggage``, one entry, `baggage`).
    ///
    /// ```swift
    /// let headers = withInjected(Clock.fixed(noon)) { propagated.encode(.current, signingWith: signer) }
    /// ```
    public func encode(
        _ context: InjectionContext, as format: PropagationFormat = .fields,
        signingWith signer: PropagationSigner? = nil
    ) -> [String: String] {
        var fields: [String: String] = [:]
        encode(context, as: format, signingWith: signer) { key, value in fields[key] = value }
        return fields
    }

    /// Hands each field for `context` to `write`: for carriers other than a dictionary.
    /// Writes nothing when `context` injects none of the listed types.
    public func encode(
        _ context: InjectionContext, as format: PropagationFormat = .fields,
        signingWith signer: PropagationSigner? = nil,
        into write: (_ key: String, _ value: String) -> Void
    ) {
        var values: [(name: String, value: String)] = []
        for (name, type) in zip(fieldNames, types) {
            if let encoding = type.encoding(in: context) {
                values.append((name, encoding))
            }
        }
        guard !values.isEmpty else { return }
        var fields = values.map { (name: $0.name, value: PropagationEscaping.escape($0.value)) }
        if let signer {
            fields.append((signatureField, signer.signature(for: values)))
        }
        switch format {
        case .fields:
            for (name, value) in fields { write(name, value) }
        case .baggage:
            write(Self.baggageHeader, fields.map { "\($0.name)=\($0.value)" }.joined(separator: ","))
        }
    }
}
