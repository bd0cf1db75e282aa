// swift-tools-version: 6.1
// SPDX-License-Identifier: Apache-2.0
// The benchmark suite: its own package, so package-benchmark and the peers it compares
// against never reach Ambient's users. Run it with `./run` (see the README's Performance).
import PackageDescription

let package = Package(
    name: "AmbientBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // The SwiftLog trait: the "bridge:" rows measure the swift-log bridges; SwiftCrypto:
        // the "carrying:" rows, signed carried values.
        .package(name: "Ambient", path: "..", traits: ["SwiftLog", "SwiftCrypto"]),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        // Only the traits the `\.date` dependency needs: skips building Clocks, CombineSchedulers, OpenCombine.
        .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1", traits: ["Foundation"]),
        .package(url: "https://github.com/apple/swift-service-context", from: "1.5.1"),
        // CarryingFixtures' floor: one HMAC-SHA256 with the library the SwiftCrypto trait signs with.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
    ],
    targets: [
        // Instruction counts per operation under callgrind: repeatable to the instruction on
        // a noisy machine. `./instructions` runs it.
        // The requests and the HMAC floor the "carrying:" rows measure, shared by both.
        .target(
            name: "CarryingFixtures",
            dependencies: [
                .product(name: "Ambient", package: "Ambient"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Contexts of K ambient types, and their raw and swift-dependencies counterparts:
        // the "breadth" rows of both.
        .target(
            name: "BreadthFixtures",
            dependencies: [
                .product(name: "Ambient", package: "Ambient"),
                .product(name: "Dependencies", package: "swift-dependencies"),
            ]
        ),
        // The swift-log bridges' handler and sink that consume an entry and nothing more: the
        // "bridge:" rows of both.
        .target(
            name: "LogFixtures",
            dependencies: [
                .product(name: "Ambient", package: "Ambient"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Reads through the one-file port's shadows and spelled out, in one Swift 5 module
        // with the port's file (a link to OneFilePort/AmbientShadows.swift): the "port:" rows.
        .target(
            name: "ShadowedFixtures",
            dependencies: [.product(name: "Ambient", package: "Ambient")],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .executableTarget(
            name: "InstructionCount",
            dependencies: [
                "BreadthFixtures",
                "CarryingFixtures",
                "LogFixtures",
                "ShadowedFixtures",
                .product(name: "Ambient", package: "Ambient"),
                .product(name: "Dependencies", package: "swift-dependencies"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "ScaleCheck",
            dependencies: [
                .product(name: "Ambient", package: "Ambient"),
                .product(name: "Dependencies", package: "swift-dependencies"),
                .product(name: "ServiceContextModule", package: "swift-service-context"),
            ]
        ),
        .executableTarget(
            name: "AmbientBenchmarks",
            dependencies: [
                .product(name: "Ambient", package: "Ambient"),
                // The tracked and driven queues' "queue:" rows.
                .product(name: "AmbientTestClock", package: "Ambient"),
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Dependencies", package: "swift-dependencies"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceContextModule", package: "swift-service-context"),
                "BreadthFixtures",
                "CarryingFixtures",
                "LogFixtures",
                "ShadowedFixtures",
            ],
            path: "Benchmarks/AmbientBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
