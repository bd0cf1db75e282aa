// swift-tools-version: 6.1
// SPDX-License-Identifier: Apache-2.0
// Ambient beside the libraries whose names it meets: swift-log's `Logger`, swift-clocks'
// `TestClock` and swift-dependencies' `UUIDGenerator`; and Ambient's bridges to swift-log
// and ServiceContext, with the traits on. Its own package, so these never reach Ambient's
// users; `.ci/run` builds and runs it. The Integrations article's blocks are compiled here
// as the page writes them (Sources/Interop/Integrations.swift, extracted by scripts/doc-blocks).
import PackageDescription

let package = Package(
    name: "AmbientInterop",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    dependencies: [
        // The traits in this order: SwiftPM 6.3 then gives the compiler their `-D` flags in the
        // order it gives the root package's `--traits` (with .ci/run's fixed hashing seed), so
        // this build reuses the Ambient that CI's traits build compiled (.ci/run checks it).
        .package(name: "Ambient", path: "../..", traits: ["ServiceContext", "SwiftCrypto", "SwiftLog"]),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // Only what `UUIDGenerator` needs: skips CombineSchedulers and OpenCombine.
        .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1", traits: ["Foundation"]),
        .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", from: "1.3.1"),
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.0.0"),
    ],
    targets: [
        .executableTarget(
            name: "Interop",
            dependencies: [
                .product(name: "Ambient", package: "Ambient"),
                .product(name: "AmbientTestClock", package: "Ambient"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "Dependencies", package: "swift-dependencies"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
            ]
        ),
        // TestClock beside swift-concurrency-extras' `withMainSerialExecutor`, which saves,
        // replaces and restores the runtime hook TestClock counts woken work through; and
        // driving swift-async-algorithms' time operators, fed by tasks the test starts.
        .testTarget(
            name: "InteropTests",
            dependencies: [
                "TimeScenarios",
                .product(name: "Ambient", package: "Ambient"),
                .product(name: "AmbientTestClock", package: "Ambient"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
                .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
            ]
        ),
        // swift-async-algorithms' debounce, throttle and timer as a test drives them: shared by
        // InteropTests (Ambient's TestClock) and CompareTestClocks (beside swift-clocks').
        .target(
            name: "TimeScenarios",
            dependencies: [
                .product(name: "Ambient", package: "Ambient"),
                .product(name: "AmbientTestClock", package: "Ambient"),
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ]
        ),
        // Wrong runs of each pipeline from each isolation a test can have: the settle's gaps.
        .executableTarget(
            name: "SettleGaps",
            dependencies: ["TimeScenarios"]
        ),
        .executableTarget(
            name: "CompareTestClocks",
            dependencies: [
                "TimeScenarios",
                .product(name: "Ambient", package: "Ambient"),
                .product(name: "AmbientTestClock", package: "Ambient"),
                .product(name: "Clocks", package: "swift-clocks"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
