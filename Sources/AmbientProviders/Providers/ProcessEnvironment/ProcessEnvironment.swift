// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: code reads `ProcessInfo.processInfo.environment`, its arguments and host name, and
// the only way to change them for a test is `setenv`, which is process-wide and races with
// every parallel test. Here they are plain values a scope injects; nothing writes the real
// environment.

/// The ambient process environment: variables, arguments and host name. Read it where code
/// used to read `ProcessInfo.processInfo`.
///
/// ```swift
/// func apiBaseURL() -> String {
///     ProcessEnvironment.current["API_BASE_URL"] ?? "https://api.example.com"
/// }
///
/// withInjected(ProcessEnvironment.live.overriding(["API_BASE_URL": "http://localhost:8080"])) {
///     #expect(apiBaseURL() == "http://localhost:8080")
/// }
/// ```
///
/// Injecting one never calls `setenv`: the process's real environment is untouched, so
/// parallel tests each see their own values.
public struct ProcessEnvironment: AmbientValue, Hashable, CustomStringConvertible {
    fileprivate enum Source: Hashable, Sendable {
        case live
        case fixed(variables: [String: String], arguments: [String], hostName: String)
        case overriding([String: String?])
    }

    /// A fixed or overriding environment, behind one reference (`.live` for the live one, so
    /// a never-injected read copies no dictionaries and counts no reference).
    @usableFromInline
    final class Box: Sendable {
        fileprivate let source: Source
        fileprivate init(_ source: Source) {
            self.source = source
        }
    }

    @usableFromInline
    let state: LiveOr<Box>

    @inlinable
    init(box: Box?) {
        state = LiveOr(box)
    }

    private init(source: Source) {
        state = source == .live ? .live : .object(Box(source))
    }

    /// How this environment reads; for ``followingCurrent``, how the current one does.
    private var source: Source {
        guard let source = state.resolved(following: ProcessEnvironment.current.state)?.source else { return .live }
        if _slowPath(RunningTest.isLoaded), state.isFollowing {
            _ = StaticInitialiserReads.report("ProcessInfo.processInfo", of: ProcessEnvironment.self, keepsLive: false)
        }
        return source
    }

    private init(following: Void) {
        state = .following
    }

    /// The environment ``AmbientValue/current`` is wherever this value is used, not where it was taken:
    /// each read goes to the current one. What the one-file port's `ProcessInfo.processInfo`
    /// is, so that one kept in a property (made before a test's scope) reads the environment
    /// the running test injected.
    ///
    /// Injected itself, it is the live environment.
    public static let followingCurrent = ProcessEnvironment(following: ())

    /// Equal when they read the same way: both live, or the same values.
    public static func == (lhs: ProcessEnvironment, rhs: ProcessEnvironment) -> Bool {
        lhs.source == rhs.source
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(source)
    }

    /// A fixed environment: exactly these variables, arguments and host name.
    ///
    /// ```swift
    /// withInjected(ProcessEnvironment(variables: ["HOME": "/home/test"], arguments: ["app", "--verbose"])) { … }
    /// ```
    public init(variables: [String: String] = [:], arguments: [String] = [], hostName: String = "localhost") {
        self.init(source: .fixed(variables: variables, arguments: arguments, hostName: hostName))
    }

    /// The process's environment, read from `ProcessInfo.processInfo` on each access.
    public static let live = ProcessEnvironment(source: .live)

    /// The live environment, built in place (inlinable: `.live` is a plain case, so a
    /// never-injected read copies no reference).
    @inlinable
    public static var defaultValue: ProcessEnvironment {
        ProcessEnvironment(box: nil)
    }

    /// This environment with `changes` applied to its variables: a value sets a variable, `nil`
    /// removes it. Arguments and host name are kept. On ``live`` the changes apply over the
    /// real environment, read on each access.
    ///
    /// ```swift
    /// ProcessEnvironment.live.overriding(["DEBUG": "1", "HTTP_PROXY": nil])
    /// ```
    public func overriding(_ changes: [String: String?]) -> ProcessEnvironment {
        switch source {
        case .live:
            return ProcessEnvironment(source: .overriding(changes))
        case .overriding(let earlier):
            return ProcessEnvironment(source: .overriding(earlier.merging(changes) { _, new in new }))
        case .fixed(var variables, let arguments, let hostName):
            for (name, value) in changes { variables[name] = value }
            return ProcessEnvironment(source: .fixed(variables: variables, arguments: arguments, hostName: hostName))
        }
    }

    /// The environment variables, as `ProcessInfo.processInfo.environment` gives them.
    public var variables: [String: String] {
        switch source {
        case .live:
            return ProcessInfo.processInfo.environment
        case .overriding(let changes):
            var variables = ProcessInfo.processInfo.environment
            for (name, value) in changes { variables[name] = value }
            return variables
        case .fixed(let variables, _, _):
            return variables
        }
    }

    /// One variable, or `nil` if it is not set. Cheaper than ``variables`` for a live or
    /// overriding environment: only this variable is read (`getenv`).
    public subscript(name: String) -> String? {
        switch source {
        case .live:
            return Self.liveVariable(name)
        case .overriding(let changes):
            if let change = changes[name] { return change }
            return Self.liveVariable(name)
        case .fixed(let variables, _, _):
            return variables[name]
        }
    }

    /// The command-line arguments, the program's path first: `ProcessInfo.processInfo.arguments`.
    public var arguments: [String] {
        if case .fixed(_, let arguments, _) = source { return arguments }
        return ProcessInfo.processInfo.arguments
    }

    /// The host's name: `ProcessInfo.processInfo.hostName`.
    public var hostName: String {
        if case .fixed(_, _, let hostName) = source { return hostName }
        return ProcessInfo.processInfo.hostName
    }

    /// `ProcessEnvironment.live`, `.live.overriding([names])` or the fixed variables' names.
    public var description: String {
        switch source {
        case .live: return "ProcessEnvironment.live"
        case .overriding(let changes): return "ProcessEnvironment.live.overriding(\(changes.keys.sorted()))"
        case .fixed(let variables, let arguments, let hostName):
            return
                "ProcessEnvironment(variables: \(variables.keys.sorted()), arguments: \(arguments), hostName: \(hostName))"
        }
    }

    private static func liveVariable(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }
}
