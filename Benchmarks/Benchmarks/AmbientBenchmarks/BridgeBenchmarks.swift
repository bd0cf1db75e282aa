// SPDX-License-Identifier: Apache-2.0

// The swift-log bridges (trait SwiftLog): one entry with one metadata key, each way, beside
// the same entry written by each library to a sink of its own that does nothing with it.
// `run` lists "bridge:" in KILO: each sample logs 1,000 entries.
import Ambient
import Benchmark
import LogFixtures
import Logging

let consumingSwiftLog = Logging.Logger(label: "bench") { _ in ConsumingLogHandler() }
let bridgedSwiftLog = Logging.Logger(label: "bench", factory: AmbientLogHandler.init)
let consumingAmbient = Ambient.Logger(sink: ConsumingLogSink(), level: .trace)

func registerBridgeBenchmarks(configuration: Benchmark.Configuration) {
    func bothKilo(_ name: String, _ body: @escaping @Sendable (Int) -> Void) {
        Benchmark("\(name) [task]", configuration: configuration) { benchmark in
            body(benchmark.scaledIterations.count)
        }
        Benchmark("\(name) [thread]", configuration: configuration) { benchmark in
            let n = benchmark.scaledIterations.count
            PlainThread.shared.run { body(n) }
        }
    }
    bothKilo("bridge: swift-log entry, its own handler") { n in
        for index in 0..<n { consumingSwiftLog.info("entry", metadata: ["index": "\(index)"]) }
    }
    bothKilo("bridge: swift-log entry into Logger.current (AmbientLogHandler)") { n in
        withInjected(consumingAmbient) {
            for index in 0..<n { bridgedSwiftLog.info("entry", metadata: ["index": "\(index)"]) }
        }
    }
    bothKilo("bridge: Ambient entry, its own sink") { n in
        withInjected(consumingAmbient) {
            for index in 0..<n { Ambient.Logger.current.info("entry", metadata: ["index": "\(index)"]) }
        }
    }
    bothKilo("bridge: Ambient entry into swift-log (Logger.bridging)") { n in
        withInjected(Ambient.Logger.bridging(to: consumingSwiftLog)) {
            for index in 0..<n { Ambient.Logger.current.info("entry", metadata: ["index": "\(index)"]) }
        }
    }
    bothKilo("bridge: Logger.bridging(to:) and its scope, per request") { n in
        for _ in 0..<n {
            withInjected(Ambient.Logger.bridging(to: consumingSwiftLog)) { blackHole(Ambient.Logger.current.level) }
        }
    }
}
