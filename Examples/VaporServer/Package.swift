// swift-tools-version: 6.1
// SPDX-License-Identifier: Apache-2.0
// A Vapor 4 token service that reads its clock, IDs, flags and logger ambiently, set up by
// one line (`app.middleware.use(AmbientMiddleware(…))` from AmbientVapor): async and
// EventLoopFuture routes, NIO thread hops, and tests in each of Vapor's testing modes. Its
// own package, so Vapor never reaches Ambient's users; `.ci/run` builds it once and runs
// its tests. See the DocC article "Ambient in a Server".
import PackageDescription

let package = Package(
    name: "AmbientVaporExample",
    platforms: [.macOS(.v13)],
    dependencies: [
        // `name:` sets the path dependency's identity (the clone's folder name otherwise).
        .package(name: "Ambient", path: "../..", traits: ["Vapor", "SwiftCrypto"]),
        .package(url: "https://github.com/vapor/vapor", from: "4.122.3"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .target(
            name: "VaporTokenService",
            dependencies: [
                .product(name: "Ambient", package: "Ambient"),
                .product(name: "AmbientVapor", package: "Ambient"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "VaporTokenServer",
            dependencies: [
                "VaporTokenService",
                .product(name: "Ambient", package: "Ambient"),
                .product(name: "Vapor", package: "vapor"),
            ]
        ),
        .testTarget(
            name: "VaporTokenServiceTests",
            dependencies: [
                "VaporTokenService",
                .product(name: "Ambient", package: "Ambient"),
                .product(name: "AmbientVapor", package: "Ambient"),
                .product(name: "AmbientTesting", package: "Ambient"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "XCTVapor", package: "vapor"),
                .product(name: "VaporTesting", package: "vapor"),
            ]
        ),
        // AmbientVapor's own tests: the middleware and BoundEventLoop on a bare app.
        .testTarget(
            name: "AmbientVaporTests",
            dependencies: [
                .product(name: "Ambient", package: "Ambient"),
                .product(name: "AmbientVapor", package: "Ambient"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "VaporTesting", package: "vapor"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
