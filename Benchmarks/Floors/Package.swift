// swift-tools-version: 6.1
// SPDX-License-Identifier: Apache-2.0
// The floors of the instruction budgets, alone: a minimal executable that depends on nothing
// but Ambient, with each floor written as users write it. `../instructions --check` counts
// each case here and in InstructionCount and fails when the two disagree, so a budget's floor
// is the one a user measures, not an artefact of the harness.
import PackageDescription

let package = Package(
    name: "AmbientFloors",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Ambient", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "Floors",
            dependencies: [.product(name: "Ambient", package: "Ambient")]
        )
    ],
    swiftLanguageModes: [.v6]
)
