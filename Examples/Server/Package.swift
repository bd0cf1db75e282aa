// swift-tools-version: 6.1
// SPDX-License-Identifier: Apache-2.0
// A Hummingbird 2 token service that reads its clock, IDs, flags and logger ambiently:
// the per-request middleware, the capture-and-run middleware for shared servers, and
// tests in each HummingbirdTesting mode. Its own package, so Hummingbird never reaches
// Ambient's users; `.ci/run` builds it and runs its tests. See the DocC article
// "Ambient in a Server".
import PackageDescription

let package = Package(
    name: "AmbientServer",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17)],
    dependencies: [
        // `package:` in a product names a package by its identity. `name:` sets it here;
        // without it, a path dependency's identity is its folder's name (the clone's, here:
        // not always "Ambient"), and a URL dependency's is the repository's name.
        .package(name: "Ambient", path: "../..", traits: ["Hummingbird", "ServiceContext", "SwiftCrypto"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
    ],
    targets: [
        .target(
            name: "TokenService",
            dependencies: [
                .product(name: "Ambient", package: "Ambient"),
                .product(name: "AmbientHummingbird", package: "Ambient"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // Service B of the three-service test: a plain Hummingbird app, no Ambient, that
        // forwards the W3C `baggage` header it receives on its own outgoing request, as any
        // service that propagates baggage would.
        .target(
            name: "BaggageForwarder",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .executableTarget(
            name: "TokenServer",
            dependencies: [
                "TokenService",
                .product(name: "Ambient", package: "Ambient"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
            ]
        ),
        .testTarget(
            name: "TokenServiceTests",
            dependencies: [
                "TokenService", "BaggageForwarder",
                .product(name: "Ambient", package: "Ambient"),
                .product(name: "AmbientTesting", package: "Ambient"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
            ]
        ),
        // AmbientHummingbird's own tests: the middleware on a bare router.
        .testTarget(
            name: "AmbientHummingbirdTests",
            dependencies: [
                .product(name: "Ambient", package: "Ambient"),
                .product(name: "AmbientHummingbird", package: "Ambient"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
