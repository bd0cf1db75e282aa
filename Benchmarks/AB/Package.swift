// swift-tools-version: 6.1
// SPDX-License-Identifier: Apache-2.0
// The scope and read rows timed against the previous head (`../ab BASE`): a program that
// depends on nothing but Ambient (its SwiftLog trait on, as the benchmark package has it), so
// that the same harness builds against this head's library and, copied into a checkout of
// BASE, against that head's; the difference between the two is the library's alone.
import PackageDescription

let package = Package(
    name: "AmbientAB",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Ambient", path: "../..", traits: ["SwiftLog"])
    ],
    targets: [
        .executableTarget(
            name: "AB",
            dependencies: [.product(name: "Ambient", package: "Ambient")]
        )
    ],
    swiftLanguageModes: [.v6]
)
