// swift-tools-version: 6.2
// SPDX-License-Identifier: Apache-2.0
// An app's code as Xcode 26 starts it: a target and its tests with the approachable
// concurrency settings (main actor by default, nonisolated(nonsending) by default,
// inferred isolated conformances), beside a Swift 5 language-mode legacy module. Its own
// package, so nothing here reaches Ambient's users; `.ci/run` builds it with warnings as
// errors and runs its tests. The Getting Started article's "App code" section is this.
import PackageDescription

/// What a new app target in Xcode 26 has.
let approachableConcurrency: [SwiftSetting] = [
    .defaultIsolation(MainActor.self),
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    .enableUpcomingFeature("InferIsolatedConformances"),
]

let package = Package(
    name: "AmbientApp",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    dependencies: [
        .package(name: "Ambient", path: "../..")
    ],
    targets: [
        // Legacy code in the Swift 5 language mode (minimal concurrency checking): a
        // class singleton with its own lock, as such modules have.
        .target(
            name: "LegacyKit",
            dependencies: [.product(name: "Ambient", package: "Ambient")],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // A GCD-heavy legacy module in the Swift 5 language mode, ported by changing where
        // its queues, thread and timer are declared: 23 background hops, no call site edited.
        .target(
            name: "InboxKit",
            dependencies: [.product(name: "Ambient", package: "Ambient")],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // LegacyKit as it was written, adopting Ambient by one added file (AmbientShadows.swift,
        // a link to the repository's OneFilePort/ file, which users copy): no call site changed.
        .target(
            name: "LegacyKitShadowed",
            dependencies: [.product(name: "Ambient", package: "Ambient")],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // InboxKit as it was written, adopting Ambient by the one added file: no call site
        // changed.
        .target(
            name: "InboxKitShadowed",
            dependencies: [.product(name: "Ambient", package: "Ambient")],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // One legacy line for each name the one-file port takes over, with the file.
        .target(
            name: "ShadowedSingletons",
            dependencies: [.product(name: "Ambient", package: "Ambient")],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // ShadowedSingletons as it was written, without the file: what the port must not
        // change while nothing is injected.
        .target(
            name: "UnportedSingletons",
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // The same legacy lines run against each (one source, linked): ShadowedSingletonsTests
        // compares what the two write, byte for byte.
        .executableTarget(
            name: "EchoPorted",
            dependencies: ["ShadowedSingletons"],
            swiftSettings: [.define("PORTED")]
        ),
        .executableTarget(
            name: "EchoUnported",
            dependencies: ["UnportedSingletons"]
        ),
        // The one-file port in the Swift 6 language mode, without and with main-actor
        // default isolation: it compiles in each, and its names are usable off the main actor.
        .target(
            name: "OneFilePortSwift6",
            dependencies: [.product(name: "Ambient", package: "Ambient")]
        ),
        .target(
            name: "OneFilePortMainActor",
            dependencies: [.product(name: "Ambient", package: "Ambient")],
            swiftSettings: approachableConcurrency
        ),
        // The app: view models and singletons, main-actor-isolated by default.
        .target(
            name: "AppCore",
            dependencies: ["LegacyKit", .product(name: "Ambient", package: "Ambient")],
            swiftSettings: approachableConcurrency
        ),
        // Its tests, with the same settings: Swift Testing…
        .testTarget(
            name: "AppCoreTests",
            dependencies: [
                "AppCore", "LegacyKit",
                .product(name: "Ambient", package: "Ambient"),
                .product(name: "AmbientTesting", package: "Ambient"),
            ],
            swiftSettings: approachableConcurrency
        ),
        // The inbox's tests: 50 in parallel with their own fakes, and the time-driven ones
        // (retry, back-off, watchdog, heartbeat, analytics) on a test clock.
        .testTarget(
            name: "InboxKitTests",
            dependencies: [
                "InboxKit",
                .product(name: "Ambient", package: "Ambient"),
                .product(name: "AmbientTesting", package: "Ambient"),
            ]
        ),
        // InboxKit's tests, the same file (a link to InboxKitTests'), run against the one-file
        // port.
        .testTarget(
            name: "InboxKitShadowedTests",
            dependencies: [
                "InboxKitShadowed",
                .product(name: "Ambient", package: "Ambient"),
                .product(name: "AmbientTesting", package: "Ambient"),
            ],
            swiftSettings: [.define("ONE_FILE_PORT")]
        ),
        // LegacyKit's tests, the same files (links to AppCoreTests'), run against the one-file
        // port.
        .testTarget(
            name: "LegacyKitShadowedTests",
            dependencies: [
                "LegacyKitShadowed",
                .product(name: "Ambient", package: "Ambient"),
                .product(name: "AmbientTesting", package: "Ambient"),
            ],
            swiftSettings: approachableConcurrency + [.define("ONE_FILE_PORT")]
        ),
        // Each of those names gives what the test injected; with nothing injected, what the
        // module wrote unported.
        .testTarget(
            name: "ShadowedSingletonsTests",
            dependencies: [
                "ShadowedSingletons", "EchoPorted", "EchoUnported",
                .product(name: "Ambient", package: "Ambient"),
                .product(name: "AmbientTesting", package: "Ambient"),
            ]
        ),
        // A ported module's own tests, as legacy test targets write them (`@testable import`),
        // with the one test-target file (OneFilePort/AmbientSystemNames.swift, linked): they
        // compile unedited and the system's names are the system's, in the Swift 5 language
        // mode and in the Swift 6 one with Xcode 26's settings (the same test file, linked).
        .testTarget(
            name: "ShadowedSingletonsTestableTests",
            dependencies: ["ShadowedSingletons", .product(name: "Ambient", package: "Ambient")],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .testTarget(
            name: "ShadowedSingletonsTestableSwift6Tests",
            dependencies: ["ShadowedSingletons", .product(name: "Ambient", package: "Ambient")],
            swiftSettings: approachableConcurrency
        ),
        // …and XCTest, through AmbientTesting's InjectingTestCase.
        .testTarget(
            name: "AppCoreXCTests",
            dependencies: [
                "AppCore", "LegacyKit",
                .product(name: "Ambient", package: "Ambient"),
                .product(name: "AmbientTesting", package: "Ambient"),
            ],
            swiftSettings: approachableConcurrency
        ),
    ]
)
