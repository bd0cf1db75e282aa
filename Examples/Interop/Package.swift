// swift-tools-version: 6.1
// Ambient beside the libraries whose names it meets: swift-log's `Logger`, swift-clocks'
// `TestClock` and swift-dependencies' `UUIDGenerator`. Its own package, so these never reach
// Ambient's users; `.ci/run` builds and runs it, and the README's "Names that meet other
// modules" block is compiled here (Tests/DocumentationTests checks the two agree).
import PackageDescription

let package = Package(
    name: "AmbientInterop",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    dependencies: [
        .package(name: "Ambient", path: "../.."),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
        // Only what `UUIDGenerator` needs: skips CombineSchedulers and OpenCombine.
        .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1", traits: ["Foundation"]),
    ],
    targets: [
        .executableTarget(
            name: "Interop",
            dependencies: [
                .product(name: "Ambient", package: "Ambient"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "Dependencies", package: "swift-dependencies"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
