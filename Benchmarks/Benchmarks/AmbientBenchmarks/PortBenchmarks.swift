// SPDX-License-Identifier: Apache-2.0

// Reads through the one-file port's shadows against the same reads spelled out (the
// "port:" rows): each a call into ShadowedFixtures inside the scope a test makes. `run`
// lists "port:" in KILO: each sample runs 1,000.
import Ambient
import Benchmark
import Foundation
import ShadowedFixtures

func registerPortBenchmarks(configuration: Benchmark.Configuration) {
    let context = InjectionContext()
        .injecting(Defaults.inMemory(["count": 3]))
        .injecting(Clock.fixed(Date(timeIntervalSince1970: 43_200)))
        .injecting(Region.posixUTC)
    func port<T>(_ name: String, _ read: @escaping @Sendable () -> T) {
        Benchmark("port: \(name) [task]", configuration: configuration) { benchmark in
            context.run { for _ in benchmark.scaledIterations { blackHole(read()) } }
        }
    }
    port("UserDefaults.standard.integer(forKey:), shadowed", shadowedDefaultsRead)
    port("Defaults.current.integer(forKey:), explicit", explicitDefaultsRead)
    port("Date(), shadowed", shadowedDate)
    port("Clock.current.now, explicit", explicitDate)
    port("Locale.current, shadowed", shadowedLocale)
    port("Region.current.locale, explicit", explicitLocale)

    // A module queue's `sync` and `async` through the port, nothing injected, against
    // Dispatch's own: each sample's `async` rows wait for their last block.
    let raw = DispatchQueue(label: "bench.port.raw")
    func queue(_ name: String, _ body: @escaping @Sendable (Benchmark) -> Void) {
        Benchmark("port: \(name) [task]", configuration: configuration) { benchmark in body(benchmark) }
    }
    queue("DispatchQueue.sync {}, Dispatch's") { benchmark in
        for _ in benchmark.scaledIterations { raw.sync {} }
    }
    queue("DispatchQueue.sync {}, shadowed") { benchmark in
        for _ in benchmark.scaledIterations { shadowedSync() }
    }
    queue("DispatchQueue.async {}, Dispatch's") { benchmark in
        for _ in benchmark.scaledIterations { raw.async {} }
        raw.sync {}
    }
    queue("DispatchQueue.async {}, shadowed") { benchmark in
        for _ in benchmark.scaledIterations { shadowedAsync() }
        shadowedSync()
    }
    // The same onto the queue held suspended, then run in one batch: the submissions without a
    // wake-up of the queue's thread for each.
    queue("DispatchQueue.async {}, batched, Dispatch's") { benchmark in
        raw.suspend()
        for _ in benchmark.scaledIterations { raw.async {} }
        raw.resume()
        raw.sync {}
    }
    queue("DispatchQueue.async {}, batched, shadowed") { benchmark in
        shadowedAsyncBatch(benchmark.scaledIterations.count)
    }
}
