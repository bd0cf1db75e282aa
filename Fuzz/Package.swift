// swift-tools-version: 6.1
// SPDX-License-Identifier: Apache-2.0
// The libFuzzer target over what a receiver reads from strangers: the carried-field and
// baggage decoders, the escaping, the signature parser and the HMAC check. Its own package,
// so the fuzzer build (libFuzzer and AddressSanitizer: `./run` says which flags) never touches
// the library's. CFuzzerDriver declares libFuzzer's driver, which the fuzzer's main calls.
// `./run [seconds [workers]]`.
import PackageDescription

let package = Package(
    name: "AmbientFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Ambient", path: "..", traits: ["SwiftCrypto"])
    ],
    targets: [
        .target(name: "CFuzzerDriver"),
        .executableTarget(
            name: "PropagationFuzzer",
            dependencies: ["CFuzzerDriver", .product(name: "Ambient", package: "Ambient")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
