// SPDX-License-Identifier: Apache-2.0

import Foundation

// Why: a stress loop sized for a plain run takes minutes under a sanitizer, which slows every test beside it.

/// Whether this test process runs under ThreadSanitizer or AddressSanitizer
/// (`swift test --sanitize=thread|address`), whose runtimes export `__tsan_init` and
/// `__asan_init`.
enum Sanitizers {
    static let areOn: Bool = {
        #if canImport(Darwin)
        let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
        #else
        let everywhere: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
        #endif
        let runtimes: [String] = ["__tsan_init", "__asan_init"]
        return runtimes.contains { dlsym(everywhere, $0) != nil }
    }()

    /// `count` repetitions of a stress or differential loop, a fifth of them under a
    /// sanitizer. Each repetition costs 5–20 times as much there, and the sanitizer checks
    /// every access of every repetition it runs; the plain run keeps the full count for the
    /// rare interleavings.
    static func scaled(_ count: Int) -> Int {
        areOn ? max(1, count / 5) : count
    }
}
