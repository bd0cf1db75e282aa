// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Ambient",
    platforms: [
        // Clock and TestClock are built on Swift.Clock and Duration, which these introduced.
        .macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .macCatalyst(.v16),
    ],
    products: [
        .library(name: "Ambient", targets: ["Ambient"]),
        .library(name: "AmbientTesting", targets: ["AmbientTesting"]),
        .executable(name: "ambient-demo", targets: ["AmbientExample"]),
    ],
    targets: [
        // Only atomics and thread-locals in C (`Synchronization.Atomic` needs macOS 15, the
        // floor is 13; Swift has no thread-local cheaper than a call): the flag word, so the
        // read path's "never injected" check is one acquire load, the binding's key, the
        // process-wide snapshot's hazard pointers, each thread's spare scope storage.
        .target(name: "_AmbientShims"),
        .target(
            name: "Ambient",
            dependencies: ["_AmbientShims"]
        ),
        // Swift Testing traits and XCTest helpers (both ship with the toolchain).
        .target(
            name: "AmbientTesting",
            dependencies: ["Ambient"]
        ),
        .executableTarget(
            name: "AmbientExample",
            dependencies: ["Ambient"]
        ),
        .testTarget(
            name: "AmbientTests",
            dependencies: ["Ambient"]
        ),
        .testTarget(
            name: "AmbientTestingTests",
            dependencies: ["Ambient", "AmbientTesting"]
        ),
        .testTarget(
            name: "AmbientExampleTests",
            dependencies: ["AmbientExample", "Ambient", "AmbientTesting"]
        ),
        // Every ```swift block of README.md and of the DocC articles, compiled (and run)
        // in context under Snippets/; a test checks the documents and the snippets agree.
        .testTarget(
            name: "DocumentationTests",
            dependencies: ["Ambient", "AmbientTesting"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
