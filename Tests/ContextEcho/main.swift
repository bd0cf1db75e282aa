// SPDX-License-Identifier: Apache-2.0

// The cross-process test's child (Tests/AmbientBridgeTests/CrossProcessTests.swift):
// reads a carrier, one `name: value` field per line, on standard input; extracts it with
// an AmbientInstrument into a ServiceContext, as a server would; and prints what
// `Clock.current` and `EchoFlags.current` are inside `withInjected(propagatedBy:)`.
//
//   ContextEcho           skip fields that do not decode (each printed as `skipped: …`)
//   ContextEcho --strict  decode with PropagatedValues.decode: exit 3 on the first bad field
//
// It trusts any sender (`.anySender`): its standard input is a pipe from the process that
// started it, which no stranger can write to.
import Ambient
import Foundation

#if ServiceContext
import Instrumentation
import ServiceContextModule

struct FieldExtractor: Extractor {
    func extract(key: String, from carrier: [String: String]) -> String? { carrier[key] }
}

var fields: [String: String] = [:]
while let line = readLine() {
    guard let colon = line.firstIndex(of: ":") else { continue }
    let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
    fields[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
}

var serviceContext = ServiceContext.topLevel
if CommandLine.arguments.contains("--strict") {
    do {
        serviceContext.injectionContext = try EchoFlags.carried.decode(
            fields, using: FieldExtractor(), trusting: .anySender)
    } catch {
        print("error: \(error)")
        exit(3)
    }
} else {
    let instrument = AmbientInstrument(
        propagating: EchoFlags.carried, trusting: .anySender, onInvalid: RejectionReporter { print("skipped: \($0)") })
    instrument.extract(fields, into: &serviceContext, using: FieldExtractor())
}

// The handler: in a task of its own, as a server's would be.
await ServiceContext.withValue(serviceContext) {
    await Task {
        await withInjected(propagatedBy: ServiceContext.current) {
            await Task.yield()
            print("clock: \(Clock.current.now.timeIntervalSinceReferenceDate)")
            print("flags: \(EchoFlags.current)")
        }
    }.value
}
#else
print("ContextEcho needs the ServiceContext trait: swift build --traits ServiceContext")
exit(2)
#endif
