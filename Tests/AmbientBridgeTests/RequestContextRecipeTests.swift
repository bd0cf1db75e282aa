// SPDX-License-Identifier: Apache-2.0

#if SwiftLog && SwiftCrypto
import Ambient
import Foundation
import Logging
import Testing

// Why: the layering every server integration shares, checked once without a server.

@Suite("RequestContextRecipe: a request's context, layer by layer")
struct RequestContextRecipeTests {
    static let key = try! PropagationSigningKey(id: "k", secret: Array("a recipe test key, 32 bytes long".utf8))
    static let carried = PropagatedValues(Plan.self, Ambient.Clock.self)

    static func signed(_ plan: String) -> [String: [String]] {
        withInjected(Plan(name: plan)) {
            carried.encode(.current, signingWith: .hmacSHA256(key)).mapValues { [$0] }
        }
    }

    func recipe(
        captured: InjectionContext? = nil, reported: RejectionCounter = RejectionCounter()
    )
        -> RequestContextRecipe
    {
        RequestContextRecipe(
            capturing: captured, propagating: Self.carried, trusting: .signed(by: [Self.key]),
            onInvalid: RejectionReporter(maximumReports: 1_000) { reported.add($0) })
    }

    @Test func eachLayerGoesOverTheOneBefore() throws {
        let captured = InjectionContext().injecting(Plan(name: "captured"), Region(code: "captured"))
        let (requestLogger, _) = RecordingLogHandler.logger()
        let context = try withInjected(Region(code: "current")) {
            try recipe(captured: captured).context(
                logger: requestLogger, fields: { Self.signed("carried")[$0] ?? [] },
                values: { InjectionContext().injecting(Plan(name: "own")) })
        }
        #expect(context[Plan.self] == Plan(name: "carried"), "carried values on top")
        #expect(context[Region.self] == Region(code: "current"), "the current values over the captured ones")
        #expect(context[Ambient.Logger.self] != nil, "the request's logger bridged")
    }

    @Test func theRequestsOwnValuesSeeTheBridgedLogger() throws {
        let (requestLogger, store) = RecordingLogHandler.logger()
        let context = try recipe().context(
            logger: requestLogger, fields: { _ in [] },
            values: { InjectionContext().injecting(Ambient.Logger.current.with(metadata: ["request": "r1"])) })
        context.run { Ambient.Logger.current.info("handled") }
        #expect(store.events.map(\.message.description) == ["handled"])
        #expect(store.events.first?.metadata?["request"] == "r1")
    }

    @Test func aFieldSentTwiceIsOneListAndNoLongerVerifies() throws {
        let counter = RejectionCounter()
        var fields = Self.signed("enterprise")
        fields["ambient-plan", default: []].append("free")
        let (requestLogger, _) = RecordingLogHandler.logger()
        let context = try recipe(reported: counter).context(
            logger: requestLogger, fields: { fields[$0] ?? [] }, values: { InjectionContext() })
        #expect(context[Plan.self] == nil)
        #expect(counter.count > 0)
    }

    @Test func unsignedValuesAreDroppedAndReported() throws {
        let counter = RejectionCounter()
        let (requestLogger, _) = RecordingLogHandler.logger()
        let context = try recipe(reported: counter).context(
            logger: requestLogger, fields: { $0 == "ambient-plan" ? ["enterprise"] : [] },
            values: { InjectionContext() })
        #expect(context[Plan.self] == nil)
        #expect(counter.count == 1)
    }
}

/// Counts rejections.
final class RejectionCounter: @unchecked Sendable {
    // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = 0
    func add(_: PropagationRejection) { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}
#endif
