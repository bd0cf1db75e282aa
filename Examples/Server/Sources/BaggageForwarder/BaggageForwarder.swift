// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Hummingbird

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A service that knows nothing of Ambient: `GET /forward` calls `downstream` (a URL) with
/// the W3C `baggage` header it received, as a service propagating baggage in any language
/// does, and answers with the downstream's body.
///
/// - Parameters:
///   - downstream: The URL it calls.
///   - alterBaggage: What it does to the header on the way (a misbehaving or hostile hop, in
///     tests); by default, nothing.
public func buildForwarder(
    port: Int = 0, downstream: URL, alterBaggage: @escaping @Sendable (String) -> String = { $0 }
) -> some ApplicationProtocol {
    let router = Router()
    router.get("forward") { request, _ -> String in
        var outgoing = URLRequest(url: downstream, timeoutInterval: 10)
        if let baggage = request.headers[.baggage] {
            outgoing.setValue(alterBaggage(baggage), forHTTPHeaderField: "baggage")
        }
        let (data, _) = try await URLSession.shared.data(for: outgoing)
        return String(decoding: data, as: UTF8.self)
    }
    return Application(
        router: router, configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "forwarder"))
}

extension HTTPField.Name {
    /// `baggage`: the W3C Baggage header.
    public static let baggage = Self("baggage")!
}
