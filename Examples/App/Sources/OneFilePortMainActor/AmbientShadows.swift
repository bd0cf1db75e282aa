// SPDX-License-Identifier: Apache-2.0
// Ambient's one-file port, version 1: copy this file, unchanged, into a module that reads the
// system's singletons. Inside that module only, the names below become Ambient's, so its code
// reads what the running test (or app) injected; no call site changes, and nothing outside the
// module sees a difference. What it covers, what still needs an edit and why: the Porting
// guide's "The one-file port". `scripts/check-docs` holds every copy in Ambient's repository
// to this text.

import Ambient
import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: Types whose initialisers legacy code calls: the name itself is Ambient's.
// A value of one of them handed to an API that needs the system's type is a compile error
// ("cannot convert value of type 'UserDefaults' (aka 'Defaults')…"): unwrap it as its row in
// the guide says (`queue.queue`, `Unshadowed.userDefaults`, …).

typealias UserDefaults = Defaults
typealias NotificationCenter = Notifications
typealias FileManager = FileSystem
typealias ProcessInfo = ProcessEnvironment
typealias URLSession = NetworkSession
typealias DispatchQueue = CarryingQueue
typealias OperationQueue = CarryingOperationQueue
typealias Thread = CarryingThread
typealias Timer = MainQueue.Timer
typealias DateFormatter = RegionalDateFormatter

// MARK: The singletons' accessors, through those names.

extension Defaults {
    /// `UserDefaults.standard` here: the current defaults.
    nonisolated static var standard: Defaults { .current }

    /// `UserDefaults(suiteName:)` has no ambient form: a suite is the live one's.
    @available(*, unavailable, message: "no ambient suite: Defaults.suite(name) is the live one")
    nonisolated init?(suiteName: String?) { fatalError("unavailable") }
}

extension Notifications {
    /// `NotificationCenter.default` here: the current notifications.
    nonisolated static var `default`: Notifications { .current }
}

extension FileSystem {
    /// `FileManager.default` here: the current file system.
    nonisolated static var `default`: FileSystem { .current }
}

extension ProcessEnvironment {
    /// `ProcessInfo.processInfo` here: the current environment.
    nonisolated static var processInfo: ProcessEnvironment { .current }
    /// `ProcessInfo.processInfo.environment` here.
    nonisolated var environment: [String: String] { variables }
}

extension NetworkSession {
    /// `URLSession.shared` here: the current session.
    nonisolated static var shared: NetworkSession { .current }
}

extension CarryingQueue {
    /// `DispatchQueue.main` here: the current main queue.
    nonisolated static var main: MainQueue { .current }
    /// `DispatchQueue.Attributes` here.
    typealias Attributes = Dispatch.DispatchQueue.Attributes
}

extension CarryingThread {
    /// `Thread.current` here: the running thread (the system's).
    nonisolated static var current: Foundation.Thread { .current }
    /// `Thread.isMainThread` here.
    nonisolated static var isMainThread: Bool { Foundation.Thread.isMainThread }
    /// `Thread.sleep(forTimeInterval:)` here: a sleep on the current clock (a test clock's
    /// sleep waits for its `advance`).
    nonisolated static func sleep(forTimeInterval interval: TimeInterval) {
        try? Clock.current.sleep(for: .seconds(interval))
    }
}

extension MainQueue.Timer {
    /// `Timer.scheduledTimer(withTimeInterval:repeats:block:)` here: on the current main queue.
    @discardableResult
    nonisolated static func scheduledTimer(
        withTimeInterval interval: TimeInterval, repeats: Bool,
        block: @escaping @MainActor @Sendable (MainQueue.Timer) -> Void
    ) -> MainQueue.Timer {
        MainQueue.current.scheduledTimer(withTimeInterval: interval, repeats: repeats, block: block)
    }
}

// A file that does not import Ambient does not see the operators its types declare: the
// deadlines' `+` again, for `.now() + 5` and `.now() + .milliseconds(300)` in such a file.
extension MainQueue.Deadline {
    /// `.now() + 5` here: `seconds` later.
    nonisolated static func + (deadline: MainQueue.Deadline, seconds: Double) -> MainQueue.Deadline {
        deadline + Duration.nanoseconds(Int64((seconds * 1e9).rounded()))
    }

    /// `.now() + .milliseconds(300)` here: `interval` later.
    nonisolated static func + (deadline: MainQueue.Deadline, interval: DispatchTimeInterval) -> MainQueue.Deadline {
        switch interval {
        case .seconds(let value): return deadline + Duration.seconds(value)
        case .milliseconds(let value): return deadline + Duration.milliseconds(value)
        case .microseconds(let value): return deadline + Duration.microseconds(value)
        case .nanoseconds(let value): return deadline + Duration.nanoseconds(value)
        default: return deadline + Duration.seconds(Int64.max)
        }
    }
}

extension MainQueue {
    /// `.main` where this module passes a main queue (`group.notify(queue: .main)`): the
    /// current main queue.
    nonisolated static var main: MainQueue { .current }

    /// `OperationQueue.main.addOperation` here: the current main queue's `async`.
    nonisolated func addOperation(_ block: @escaping @MainActor @Sendable () -> Void) {
        async(execute: block)
    }
}

extension Foundation.OperationQueue {
    /// `OperationQueue.main` here: the current main queue.
    nonisolated static var main: MainQueue { .current }
}

/// `DateFormatter()` here: a formatter in the current region's locale, time zone and calendar.
nonisolated final class RegionalDateFormatter: Foundation.DateFormatter, @unchecked Sendable {
    override init() {
        super.init()
        let region = Region.current
        locale = region.locale
        timeZone = region.timeZone
        calendar = region.calendar
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
    }
}

// MARK: System APIs that would take the system's main queue in their own parameter's type.

extension Dispatch.DispatchQueue {
    /// `.main` where a Dispatch queue is expected: the current main queue, so that
    /// `group.notify(queue: .main)` is ambient, and a system API's `.main` a compile error.
    nonisolated static var main: MainQueue { .current }
    /// `.global()` where a Dispatch queue is expected: carrying.
    nonisolated static func global(qos: DispatchQoS.QoSClass = .default) -> CarryingQueue {
        CarryingQueue.global(qos: qos)
    }
}

// MARK: Values: the system's types, their current values Ambient's.

extension Date {
    /// `Date()` here: the current clock's time.
    nonisolated init() { self = Clock.current.now }
    /// `Date.now` here.
    nonisolated static var now: Date { Clock.current.now }
    /// `Date(timeIntervalSinceNow:)` here.
    nonisolated init(timeIntervalSinceNow interval: TimeInterval) {
        self = Clock.current.now.addingTimeInterval(interval)
    }
    /// `date.timeIntervalSinceNow` here.
    nonisolated var timeIntervalSinceNow: TimeInterval { timeIntervalSince(Clock.current.now) }
}

extension UUID {
    /// `UUID()` here: the current generator's next.
    nonisolated init() { self = UUIDGenerator.current() }
}

/// The current region (in the extensions below, `Region` would be `Locale.Region`).
nonisolated private func currentRegion() -> Region { Region.current }

extension Locale {
    /// `Locale.current` here: the current region's.
    nonisolated static var current: Locale { currentRegion().locale }
    /// `Locale.autoupdatingCurrent` here.
    nonisolated static var autoupdatingCurrent: Locale { currentRegion().locale }
}

extension TimeZone {
    /// `TimeZone.current` here: the current region's.
    nonisolated static var current: TimeZone { currentRegion().timeZone }
    /// `TimeZone.autoupdatingCurrent` here.
    nonisolated static var autoupdatingCurrent: TimeZone { currentRegion().timeZone }
}

extension Calendar {
    /// `Calendar.current` here: the current region's.
    nonisolated static var current: Calendar { currentRegion().calendar }
    /// `Calendar.autoupdatingCurrent` here.
    nonisolated static var autoupdatingCurrent: Calendar { currentRegion().calendar }
}

extension Data {
    /// `data.write(to:)` here: through the current file system.
    nonisolated func write(to url: URL, options: Data.WritingOptions = []) throws {
        try FileSystem.current.write(self, to: url, options: options)
    }
    /// `Data(contentsOf:)` here: through the current file system.
    nonisolated init(contentsOf url: URL, options: Data.ReadingOptions = []) throws {
        self = try FileSystem.current.contents(of: url)
    }
}

// MARK: Free functions: the module's own shadow Swift's and Foundation's.

/// `print` here: an info entry on the current logger.
nonisolated func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    Logger.current.info(items.map { "\($0)" }.joined(separator: separator))
}

/// `NSLog` here: an info entry on the current logger, formatted as `NSLog` formats.
// swift-format-ignore: AlwaysUseLowerCamelCase
nonisolated func NSLog(_ format: String, _ arguments: CVarArg...) {
    Logger.current.info(String(format: format, arguments: arguments))
}
