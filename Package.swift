// swift-tools-version: 6.1
// SPDX-License-Identifier: Apache-2.0
// 6.1: package traits, and Swift Testing's `TestScoping` (AmbientTesting's traits).
import PackageDescription

/// What each bridge needs, only when its trait is on: the library, the bridges' tests and
/// the cross-process test's child all use these.
let bridgeDependencies: [Target.Dependency] = [
    .product(name: "Logging", package: "swift-log", condition: .when(traits: ["SwiftLog"])),
    .product(
        name: "ServiceContextModule", package: "swift-service-context", condition: .when(traits: ["ServiceContext"])),
    .product(
        name: "Instrumentation", package: "swift-distributed-tracing", condition: .when(traits: ["ServiceContext"])),
    .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: ["SwiftCrypto"])),
]

let package = Package(
    name: "Ambient",
    platforms: [
        // Clock and TestClock are built on Swift.Clock and Duration, which these introduced.
        .macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .macCatalyst(.v16),
    ],
    products: [
        .library(name: "Ambient", targets: ["Ambient"]),
        // For code that makes its own types ambient and needs none of Ambient's providers.
        .library(name: "AmbientCore", targets: ["AmbientCore"]),
        // The layers `Ambient` re-exports, each a product too: for a library that needs the
        // providers without propagation, and so that SwiftPM's API-breakage check (which reads
        // a library product's modules) covers every public module (scripts/release, .ci/run).
        .library(name: "AmbientProviders", targets: ["AmbientProviders"]),
        .library(name: "AmbientPropagation", targets: ["AmbientPropagation"]),
        .library(name: "AmbientTesting", targets: ["AmbientTesting"]),
        // TestClock and the tracked and driven queues, for a target that tests with them and
        // does not link AmbientTesting (a demo program); AmbientTesting re-exports it.
        .library(name: "AmbientTestClock", targets: ["AmbientTestClock"]),
        .executable(name: "ambient-demo", targets: ["AmbientExample"]),
        // The server integrations: empty unless their traits are on.
        .library(name: "AmbientHummingbird", targets: ["AmbientHummingbird"]),
        .library(name: "AmbientVapor", targets: ["AmbientVapor"]),
    ],
    // The bridges. Both off by default, and a dependency is fetched only when its trait is
    // on: a default build of a fresh clone fetches nothing. Turn one on where you depend on
    // Ambient: `.package(url: …, from: …, traits: ["SwiftLog"])`.
    traits: [
        .trait(
            name: "SwiftLog",
            description: "Bridges Ambient's Logger and swift-log both ways: SwiftLogSink and AmbientLogHandler."
        ),
        .trait(
            name: "ServiceContext",
            description:
                "Carries an InjectionContext in a ServiceContext, and carried values through an Instrument's headers."
        ),
        .trait(
            name: "SwiftCrypto",
            description:
                "Signs carried values with HMAC-SHA256 (apple/swift-crypto): PropagationSigner.hmacSHA256 and PropagationTrust.signed."
        ),
        .trait(
            name: "Hummingbird",
            description:
                "AmbientHummingbird: the per-request middleware (captured values, the request's own, signed carried ones, the request's logger) for Hummingbird 2.",
            enabledTraits: ["SwiftLog"]
        ),
        .trait(
            name: "Vapor",
            description:
                "AmbientVapor: the per-request middleware for Vapor 4, for async and EventLoopFuture routes alike, and an EventLoop that binds the request's values.",
            enabledTraits: ["SwiftLog"]
        ),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-service-context", from: "1.5.1"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/vapor/vapor", from: "4.122.3"),
    ],
    targets: [
        // The little that is C (`Synchronization.Atomic` needs macOS 15, the floor is 13;
        // Swift has no thread-local cheaper than a call): ARCHITECTURE.md's "What the C shim
        // holds" lists it, and scripts/check-docs keeps that list whole.
        .target(name: "_AmbientShims"),
        // The mechanism: ambient values, scopes, contexts, bind/run, process-wide scopes,
        // strict mode. Imports the shims (so does one file of AmbientPropagation: ARCHITECTURE.md
        // lists the importers). Names no provider.
        .target(
            name: "AmbientCore",
            dependencies: [
                "_AmbientShims",
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["SwiftLog"])),
            ]
        ),
        // Clock, Defaults, Logger and the other providers, their test forms, and the swift-log
        // bridge: built on AmbientCore as a user's own ambient type is.
        .target(
            name: "AmbientProviders",
            dependencies: [
                "AmbientCore",
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["SwiftLog"])),
            ]
        ),
        // TestClock, the tracked and driven queues, the work they count and the runtime hook
        // that counts it: behind AmbientProviders' seam (Seam/), so an app that never links
        // this module carries none of it.
        .target(
            name: "AmbientTestClock",
            dependencies: ["AmbientCore", "AmbientProviders"]
        ),
        // Values as strings for other processes (wire format, trust, signing), and the
        // ServiceContext and swift-crypto bridges.
        .target(
            name: "AmbientPropagation",
            // The shims for its byte-class table (Values/ByteClass.swift).
            dependencies: ["_AmbientShims", "AmbientCore", "AmbientProviders"] + bridgeDependencies
        ),
        // `import Ambient`: the three above, re-exported, and the documentation.
        .target(
            name: "Ambient",
            dependencies: ["AmbientCore", "AmbientProviders", "AmbientPropagation"]
        ),
        // The server integrations, each compiled only with its trait on (its framework is
        // fetched only then).
        .target(
            name: "AmbientHummingbird",
            dependencies: [
                "Ambient",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["Hummingbird"])),
            ]
        ),
        .target(
            name: "AmbientVapor",
            dependencies: [
                "Ambient",
                // Its `package` report delivery, for VaporTesting's `.inMemory` mode.
                "AmbientProviders",
                .product(name: "Vapor", package: "vapor", condition: .when(traits: ["Vapor"])),
            ]
        ),
        // Swift Testing traits and XCTest helpers (both ship with the toolchain).
        .target(
            name: "AmbientTesting",
            dependencies: ["Ambient", "AmbientTestClock", "_AmbientTestingShims"]
        ),
        // Runs AmbientTesting's set-up when a test program that links it loads: it follows
        // which XCTest test case is running, so `IssueReporter.automatic` can fail it.
        .target(name: "_AmbientTestingShims"),
        .executableTarget(
            name: "AmbientExample",
            dependencies: ["Ambient", "AmbientTestClock"]
        ),
        // A test target per module, each testing it through what it makes visible (and the
        // modules below it), so one module's tests run alone (`swift test --filter
        // AmbientProvidersTests`). Their shared helpers are Tests/Support, linked into each.
        // AmbientCore alone, as a library that makes its own types ambient uses it.
        .testTarget(
            name: "AmbientCoreTests",
            dependencies: ["AmbientCore"]
        ),
        .testTarget(
            name: "AmbientProvidersTests",
            dependencies: ["AmbientCore", "AmbientProviders"]
        ),
        .testTarget(
            name: "AmbientTestClockTests",
            dependencies: ["AmbientCore", "AmbientProviders", "AmbientTestClock"]
        ),
        .testTarget(
            name: "AmbientPropagationTests",
            // AmbientTestClock: that a test clock arrives frozen at its current time.
            dependencies: ["AmbientCore", "AmbientProviders", "AmbientPropagation", "AmbientTestClock"]
        ),
        // `import Ambient`: that the one import re-exports every layer.
        .testTarget(
            name: "AmbientTests",
            dependencies: ["Ambient"]
        ),
        .testTarget(
            name: "AmbientTestingTests",
            dependencies: [
                "Ambient", "AmbientTesting", "ReportOutsideATest", "ReportWithoutAmbientTesting", "RegionProbe",
            ]
        ),
        // Programs that report through Ambient's default IssueReporter where no test runs,
        // one linking AmbientTesting and one not (AmbientTestingTests starts them).
        .executableTarget(
            name: "ReportOutsideATest",
            dependencies: ["Ambient", "AmbientTesting"],
            path: "Tests/ReportOutsideATest"
        ),
        .executableTarget(
            name: "ReportWithoutAmbientTesting",
            dependencies: ["Ambient"],
            path: "Tests/ReportWithoutAmbientTesting"
        ),
        // Formats a date with the ambient Region, injected and live: AmbientTestingTests runs
        // it under different TZ and LANG settings.
        .executableTarget(
            name: "RegionProbe",
            dependencies: ["Ambient"],
            path: "Tests/RegionProbe"
        ),
        .testTarget(
            name: "AmbientExampleTests",
            dependencies: ["AmbientExample", "Ambient", "AmbientTesting"]
        ),
        // The bridges' tests: empty unless their traits are on
        // (`swift test --traits SwiftLog,ServiceContext`).
        .testTarget(
            name: "AmbientBridgeTests",
            dependencies: [
                "Ambient", "AmbientTesting",
                .target(name: "ContextEcho", condition: .when(traits: ["ServiceContext"])),
            ] + bridgeDependencies
        ),
        // The cross-process test's child: reads a carrier on standard input, extracts it
        // with the ServiceContext bridge and prints what the values are there.
        .executableTarget(
            name: "ContextEcho",
            dependencies: ["Ambient"] + bridgeDependencies,
            path: "Tests/ContextEcho"
        ),
        // The documents' checks that are not compiling a block: manifests parse, the server
        // article's excerpts are in the server examples, and blocks the pages' tests copy
        // are still the pages' (scripts/doc-blocks compiles every other block).
        .testTarget(
            name: "DocumentationTests",
            dependencies: ["Ambient", "AmbientTesting"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// Each page's ```swift blocks, extracted by scripts/doc-blocks into a test target of the
// page's own (its declarations meet no other page's), compiled as written and run where the
// page shows their output.
let documentPages = [
    "Readme", "Ambient", "CarryingContextAcrossThreads", "GettingStarted", "MigratingFromASwizzledSingleton",
    "Performance", "ReplacingSystemSingletons", "TestingTimeDependentCode", "TestingWithAmbient",
    "WritingYourOwnAmbientValue",
]
// The blocks a page marks `<!-- doc-blocks: main actor -->`, in a target isolated to the main
// actor by default, with the upcoming features an Xcode 26 app target turns on.
let mainActorDocumentPages = ["GettingStarted"]
package.targets += [
    .target(name: "DocumentationSupport", path: "Tests/DocumentationSupport")
]
package.targets += documentPages.map { page in
    .testTarget(
        name: "Documents\(page)",
        dependencies: ["Ambient", "AmbientTesting", "DocumentationSupport"],
        path: "Tests/Documents/\(page)"
    )
}
#if compiler(>=6.2)  // `-default-isolation` came with Swift 6.2
package.targets += mainActorDocumentPages.map { page in
    .testTarget(
        name: "Documents\(page)MainActor",
        dependencies: ["Ambient", "AmbientTesting"],
        path: "Tests/Documents/\(page)MainActor",
        swiftSettings: [
            .unsafeFlags(["-default-isolation", "MainActor"]),
            .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
            .enableUpcomingFeature("InferIsolatedConformances"),
        ]
    )
}
#endif

// `AMBIENT_TESTS=library` leaves out the pages' test targets (their blocks and checks: what
// the sanitizers' runs need not compile again); `AMBIENT_TESTS=bridges` keeps the bridges'
// tests alone (what the traits' build in CI runs). Unset: every test target.
switch Context.environment["AMBIENT_TESTS"] {
case "library"?:
    package.targets.removeAll {
        $0.type == .test && ($0.name.hasPrefix("Documents") || $0.name == "DocumentationTests")
    }
case "bridges"?:
    package.targets.removeAll { $0.type == .test && $0.name != "AmbientBridgeTests" }
case nil, ""?:
    break
case let other?:
    fatalError("AMBIENT_TESTS=\(other): expected library or bridges (or unset, for every test target)")
}
