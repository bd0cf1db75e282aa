// swift-tools-version: 6.2
// SPDX-License-Identifier: Apache-2.0
// Ambient inside a shared library that a host loads with `dlopen`, as plugin systems and
// some app extensions do. Its own package; `.ci/run` builds it and runs the host with the
// loader's reserve of static TLS set to nothing (`GLIBC_TUNABLES=glibc.rtld.optional_static_tls=0`),
// where a thread-local declared initial-exec would fail to load ("cannot allocate memory in
// static TLS block"). Linux only: `scripts/run` says how.
import PackageDescription

let package = Package(
    name: "AmbientPlugin",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "AmbientPlugin", type: .dynamic, targets: ["AmbientPlugin"]),
        .executable(name: "PluginHost", targets: ["PluginHost"]),
    ],
    dependencies: [
        .package(name: "Ambient", path: "../..")
    ],
    targets: [
        // The plugin: Ambient linked into it, exercised through one C entry point.
        .target(name: "AmbientPlugin", dependencies: [.product(name: "Ambient", package: "Ambient")]),
        // The host: links no Ambient; loads the plugin at run time.
        .executableTarget(name: "PluginHost"),
    ],
    swiftLanguageModes: [.v6]
)
