// SPDX-License-Identifier: Apache-2.0

// The running test, as far as Ambient can reach it without linking a test framework:
// through AmbientTesting's entry point, when the program links AmbientTesting.
import _AmbientShims

// Why: a report fails the running test without Ambient linking a test framework.

/// Records reports as failures of the running test through AmbientTesting
/// (`ambient_testing_record_issue`), found in the program when it links AmbientTesting.
@usableFromInline
package enum RunningTest {
    /// Whether AmbientTesting is linked into this program.
    package static var isReachable: Bool {
        _ambient_testing_record_issue_hook() != nil
    }

    /// Whether AmbientTesting has loaded in this program (``markLoaded()``): one load of the
    /// flag word, for checks only a test run makes.
    @inlinable
    package static var isLoaded: Bool {
        _ambient_flags_load() & RuntimeFlags.testing != 0
    }

    /// Says that AmbientTesting has loaded: called once, as a test program that links it loads.
    package static func markLoaded() {
        _ambient_flags_set(RuntimeFlags.testing)
    }

    /// Records `message` at `location` as a failure of the running test (Swift Testing or
    /// XCTest); `false` when no test is running or AmbientTesting is not linked.
    package static func recordFailure(
        _ message: String, fileID: String, filePath: String, line: Int, column: Int
    ) -> Bool {
        guard let record = _ambient_testing_record_issue_hook() else { return false }
        return record(message, fileID, filePath, line, column)
    }

    /// A place in the source, as AmbientTesting's ``locator`` finds it.
    package struct SourcePlace: Sendable, Equatable {
        /// The function, as the symbol table names it (`one-time initialization function for x`).
        package let function: String
        /// `Module/File.swift`, as `#fileID` would say it (the module taken to be the file's folder).
        package let fileID: String
        /// The file's path.
        package let filePath: String
        /// The line.
        package let line: Int
        /// The column.
        package let column: Int

        package init(function: String, fileID: String, filePath: String, line: Int, column: Int) {
            self.function = function
            self.fileID = fileID
            self.filePath = filePath
            self.line = line
            self.column = column
        }
    }

    /// What finds places in the calling thread's stack, when AmbientTesting is linked and the
    /// platform can symbolicate (Swift's `Runtime` module): it installs them as the program
    /// loads. Each is slow (it reads debug information): only reports ask.
    package struct Locator: Sendable {
        /// The innermost one-time initialiser (a static's or global's) the calling thread runs.
        package let onceInitialiser: @Sendable () -> SourcePlace?
        /// The innermost frame of code outside Ambient (its modules and the one-file port's
        /// files) that has a source location: the code that made the call being reported.
        package let caller: @Sendable () -> SourcePlace?

        package init(
            onceInitialiser: @escaping @Sendable () -> SourcePlace?, caller: @escaping @Sendable () -> SourcePlace?
        ) {
            self.onceInitialiser = onceInitialiser
            self.caller = caller
        }
    }

    private static let installedLocator = Locked<Locator?>(nil)

    /// AmbientTesting's ``Locator``, `nil` until it installs one.
    package static var locator: Locator? {
        get { installedLocator.get() }
        set { installedLocator.withLock { $0 = newValue } }
    }
}
