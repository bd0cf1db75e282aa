// SPDX-License-Identifier: Apache-2.0

#if ServiceContext
import Ambient
import ContextEcho
import Foundation
import Instrumentation
import ServiceContextModule
import Testing

struct DictionaryInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) {
        carrier[key] = value
    }
}

struct DictionaryExtractor: Extractor {
    func extract(key: String, from carrier: [String: String]) -> String? { carrier[key] }
}

struct RequestTag: AmbientValue, Equatable {
    var id: Int
    static var defaultValue: RequestTag { RequestTag(id: -1) }
}

@Suite("ServiceContext carries an InjectionContext")
struct ServiceContextBridgeTests {
    let noon = Date(timeIntervalSinceReferenceDate: 43_200)
    /// These tests are about the mechanics: both sides are this process.
    let instrument = AmbientInstrument(propagating: EchoFlags.carried, trusting: .anySender)

    @Test func aServiceContextCarriesAnInjectionContext() {
        var serviceContext = ServiceContext.topLevel
        #expect(serviceContext.injectionContext == nil)
        serviceContext.injectionContext = InjectionContext().injecting(RequestTag(id: 7))
        #expect(serviceContext.injectionContext?[RequestTag.self] == RequestTag(id: 7))
    }

    @Test func itsValuesGoOnTopOfTheCurrentOnes() {
        var serviceContext = ServiceContext.topLevel
        serviceContext.injectionContext = InjectionContext().injecting(RequestTag(id: 7))
        withInjected(RequestTag(id: 1), EchoFlags(["server"])) {
            withInjected(propagatedBy: serviceContext) {
                #expect(RequestTag.current == RequestTag(id: 7))
                #expect(EchoFlags.current == EchoFlags(["server"]))
            }
            withInjected(propagatedBy: nil) { #expect(RequestTag.current == RequestTag(id: 1)) }
            withInjected(propagatedBy: .topLevel) { #expect(RequestTag.current == RequestTag(id: 1)) }
        }
    }

    @Test func theValuesFollowTheServiceContextIntoTasks() async {
        var serviceContext = ServiceContext.topLevel
        serviceContext.injectionContext = InjectionContext().injecting(RequestTag(id: 9))
        let seen = await ServiceContext.withValue(serviceContext) {
            await Task.detached {
                // Detached: inherits neither ServiceContext.current nor the values.
                withInjected(propagatedBy: ServiceContext.current) { RequestTag.current.id }
            }.value
        }
        #expect(seen == -1)
        let handled = await ServiceContext.withValue(serviceContext) {
            await Task {
                await withInjected(propagatedBy: ServiceContext.current) {
                    await Task.yield()
                    return RequestTag.current.id
                }
            }.value
        }
        #expect(handled == 9)
    }

    @Test func injectSendsTheCurrentValuesOverThoseTheServiceContextCarries() {
        var headers: [String: String] = [:]
        withInjected(Clock.fixed(noon)) {
            instrument.inject(.topLevel, into: &headers, using: DictionaryInjector())
        }
        #expect(headers == ["ambient-clock": "fixed:43200.0"])

        var serviceContext = ServiceContext.topLevel
        serviceContext.injectionContext = InjectionContext().injecting(
            EchoFlags(["b", "a"]), Clock.fixed(Date(timeIntervalSinceReferenceDate: 1)))
        headers = [:]
        withInjected(Clock.fixed(noon)) {
            instrument.inject(serviceContext, into: &headers, using: DictionaryInjector())
        }
        #expect(headers == ["ambient-clock": "fixed:43200.0", "ambient-echo-flags": "a%2Cb"])

        // Outside every scope (a detached job handed the service context), it brings its own.
        headers = [:]
        instrument.inject(serviceContext, into: &headers, using: DictionaryInjector())
        #expect(headers == ["ambient-clock": "fixed:1.0", "ambient-echo-flags": "a%2Cb"])
    }

    @Test func extractPutsTheValuesInTheServiceContextOnTopOfWhatItCarries() {
        var serviceContext = ServiceContext.topLevel
        serviceContext.injectionContext = InjectionContext().injecting(RequestTag(id: 3), EchoFlags(["old"]))
        instrument.extract(
            ["ambient-clock": "fixed:43200.0", "ambient-echo-flags": "new"], into: &serviceContext,
            using: DictionaryExtractor())
        withInjected(propagatedBy: serviceContext) {
            #expect(Clock.current.now == noon)
            #expect(EchoFlags.current == EchoFlags(["new"]))
            #expect(RequestTag.current == RequestTag(id: 3))
        }
        var untouched = ServiceContext.topLevel
        instrument.extract([:], into: &untouched, using: DictionaryExtractor())
        #expect(untouched.injectionContext == nil)
    }

    @Test func itWorksBesideATracerInAMultiplexInstrument() {
        // A server's instrument is usually a tracer's; AmbientInstrument sits beside it.
        let tracerLike = TraceIDInstrument()
        let both = MultiplexInstrument([tracerLike, instrument])
        var headers: [String: String] = [:]
        var outgoing = ServiceContext.topLevel
        outgoing[TraceIDKey.self] = "trace-1"
        withInjected(Clock.fixed(noon)) {
            both.inject(outgoing, into: &headers, using: DictionaryInjector())
        }
        #expect(headers == ["trace-id": "trace-1", "ambient-clock": "fixed:43200.0"])

        var incoming = ServiceContext.topLevel
        both.extract(headers, into: &incoming, using: DictionaryExtractor())
        #expect(incoming[TraceIDKey.self] == "trace-1")
        withInjected(propagatedBy: incoming) { #expect(Clock.current.now == noon) }
    }

    @Test func aBadHeaderIsSkippedAndReportedOnTheLogger() {
        let log = Logger.capturing()
        var serviceContext = ServiceContext.topLevel
        withInjected(log) {
            instrument.extract(
                ["ambient-clock": "yesterday", "ambient-echo-flags": "ok"], into: &serviceContext,
                using: DictionaryExtractor())
        }
        #expect(serviceContext.injectionContext?[Clock.self] == nil)
        #expect(serviceContext.injectionContext?[EchoFlags.self] == EchoFlags(["ok"]))
        #expect(log.captured.map(\.level) == [.warning])
        #expect(log.captured.first?.metadata["key"] == "ambient-clock")
        #expect(log.captured.first?.metadata["reason"]?.contains("as Clock") == true)
        #expect(log.captured.first?.metadata["arrived"] == "yesterday")

        #expect(throws: PropagationRejection.self) {
            try EchoFlags.carried.decode(
                ["ambient-clock": "yesterday"], using: DictionaryExtractor(), trusting: .anySender)
        }
    }

    @Test func byDefaultAnInstrumentAppliesNothingARequestCarries() {
        let log = Logger.capturing()
        var serviceContext = ServiceContext.topLevel
        withInjected(log) {
            AmbientInstrument(propagating: EchoFlags.carried).extract(
                ["ambient-clock": "fixed:0.0", "ambient-echo-flags": "admin"], into: &serviceContext,
                using: DictionaryExtractor())
        }
        #expect(serviceContext.injectionContext == nil)
        #expect(log.captured.map { $0.metadata["key"] } == ["ambient-clock", "ambient-echo-flags"])
        #expect(log.captured.allSatisfy { $0.metadata["reason"] == "from a sender this receiver does not trust" })
    }

    @Test func twoHundredConcurrentRequestsEachSeeOnlyTheirOwnValues() async {
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for id in 0..<200 {
                group.addTask {
                    // The client side: the test's values for this request…
                    let headers = withInjected(
                        EchoFlags(["request-\(id)".filter(\.isLetter)]),
                        Clock.fixed(
                            Date(timeIntervalSinceReferenceDate: Double(id)))
                    ) {
                        var headers: [String: String] = [:]
                        instrument.inject(.topLevel, into: &headers, using: DictionaryInjector())
                        return headers
                    }
                    // …and the server side, in a task of its own.
                    return await Task.detached {
                        var serviceContext = ServiceContext.topLevel
                        instrument.extract(headers, into: &serviceContext, using: DictionaryExtractor())
                        return await withInjected(propagatedBy: serviceContext) {
                            await Task.yield()
                            return Clock.current.now == Date(timeIntervalSinceReferenceDate: Double(id)) ? 0 : 1
                        }
                    }.value
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }
}
/// A stand-in for a tracer's instrument: one header, one service-context key.
enum TraceIDKey: ServiceContextKey {
    typealias Value = String
}

struct TraceIDInstrument: Instrument {
    func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
    ) where Inject.Carrier == Carrier {
        if let id = context[TraceIDKey.self] { injector.inject(id, forKey: "trace-id", into: &carrier) }
    }

    func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
    ) where Extract.Carrier == Carrier {
        context[TraceIDKey.self] = extractor.extract(key: "trace-id", from: carrier)
    }
}
#endif
