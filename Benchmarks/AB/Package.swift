// swift-tools-version: 6.1
// SPDX-License-Identifier: Apache-2.0
// Two minimal programs that depend on nothing but Ambient (its SwiftLog trait on, as the
// benchmark package has it), built in one folder:
// - AB: the scope and read rows timed against the previous head (`../ab BASE`). The same
//   harness builds against this head's library and, copied into a checkout of BASE, against
//   that head's; the difference between the two is the library's alone.
// - Floors: the floors of the instruction budgets, alone, each written as users write it.
//   `../instructions --check` counts each case here and in InstructionCount and fails when
//   the two disagree, so a budget's floor is the one a user measures, not an artefact of
//   the harness.
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
            dependencies: [.product(name: "Ambient", package: "Ambient")],
            // Every function and loop of the harness starts on a 64-byte boundary, so a row's
            // loop takes the same shape in both builds wherever the linker puts it: a read of
            // a few nanoseconds moves by a tenth when its loop straddles a boundary in one
            // build and not the other.
            swiftSettings: [
                .unsafeFlags(["-Xllvm", "-align-all-functions=6", "-Xllvm", "-align-all-nofallthru-blocks=6"])
            ]
        ),
        .executableTarget(
            name: "Floors",
            dependencies: [.product(name: "Ambient", package: "Ambient")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
