// SPDX-License-Identifier: Apache-2.0
// Ambient's one-file port, version 1: copy this file, unchanged, into a module that reads the
// system's singletons. Inside that module only, the names below become Ambient's, so its code
// reads what the running test (or app) injected; no call site changes, and nothing outside the
// module sees a difference. What it covers, what still needs an edit and why: "The one-file
// port" in the article Migrating from a Swizzled Singleton. In Ambient's repository, the
// ports that test this file link to it.

import Ambient
import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: Types whose initialisers legacy code calls: the name itself is Ambient's.
// A value of one of them handed to an API that needs the system's type is a compile error that
// names the Ambient type ("cannot convert value of type 'DispatchQueue' (aka 'CarryingQueue')…");
// where an accessor made the value, its type's name says how to reach the system's object
// ("…of type 'Defaults.UnwrapAs_Foundation_UserDefaults_standard'…": write
// `Foundation.UserDefaults.standard`). The guide's table lists each.

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
typealias NumberFormatter = RegionalNumberFormatter

// MARK: The singletons' accessors, through those names.

extension Defaults {
    /// What `UserDefaults.standard` is here; for the system's, `Foundation.UserDefaults.standard`.
    typealias UnwrapAs_Foundation_UserDefaults_standard = Defaults
    /// `UserDefaults.standard` here: the current defaults.
    nonisolated static var standard: UnwrapAs_Foundation_UserDefaults_standard { .current }

    /// `UserDefaults(suiteName:)` has no ambient form: a suite is the live one's.
    @available(*, unavailable, message: "no ambient suite: UserDefaults.suite(name) is the live one, as Defaults")
    nonisolated init?(suiteName: String?) { fatalError("unavailable") }
}

extension Notifications {
    /// What `NotificationCenter.default` is here; for its system center, `.center`.
    typealias UnwrapAs_default_center = Notifications
    /// `NotificationCenter.default` here: the current notifications.
    nonisolated static var `default`: UnwrapAs_default_center { .current }
}

extension FileSystem {
    /// What `FileManager.default` is here; for the system's, `Foundation.FileManager.default`.
    typealias UnwrapAs_Foundation_FileManager_default = FileSystem
    /// `FileManager.default` here: the current file system.
    nonisolated static var `default`: UnwrapAs_Foundation_FileManager_default { .current }
}

extension ProcessEnvironment {
    /// What `ProcessInfo.processInfo` is here; for the system's, `Foundation.ProcessInfo.processInfo`.
    typealias UnwrapAs_Foundation_ProcessInfo_processInfo = ProcessEnvironment
    /// `ProcessInfo.processInfo` here: the current environment.
    nonisolated static var processInfo: UnwrapAs_Foundation_ProcessInfo_processInfo { .current }
    /// `ProcessInfo.processInfo.environment` here.
    nonisolated var environment: [String: String] { variables }
}

extension NetworkSession {
    /// What `URLSession.shared` is here; for the system's, `Foundation.URLSession.shared`
    /// (`FoundationNetworking.URLSession.shared` on Linux).
    typealias UnwrapAs_Foundation_URLSession_shared = NetworkSession
    /// `URLSession.shared` here: the current session.
    nonisolated static var shared: UnwrapAs_Foundation_URLSession_shared { .current }
}

extension CarryingQueue {
    /// `DispatchQueue.main` here: the current main queue.
    nonisolated static var main: MainQueue.UnwrapAs_main_system { .current }
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
    /// What `Timer.scheduledTimer(…)` makes here; for a system timer, `Foundation.Timer`.
    typealias UnwrapAs_Foundation_Timer = MainQueue.Timer

    /// `Timer.scheduledTimer(withTimeInterval:repeats:block:)` here: on the current main queue.
    @discardableResult
    nonisolated static func scheduledTimer(
        withTimeInterval interval: TimeInterval, repeats: Bool,
        block: @escaping @MainActor @Sendable (MainQueue.Timer) -> Void
    ) -> UnwrapAs_Foundation_Timer {
        MainQueue.current.scheduledTimer(withTimeInterval: interval, repeats: repeats, block: block)
    }
}

// A file that does not import Ambient does not see the operators its types declare: the
// deadlines' `+` again, for `.now() + 5` and `.now() + .milliseconds(300)` in such a file.
extension MainQueue.Deadline {
    /// `.now() + 5` here: `seconds` later.
    nonisolated static func + (deadline: MainQueue.Deadline, seconds: Double) -> MainQueue.Deadline {
        deadline.adding(seconds: seconds)
    }

    /// `.now() + .milliseconds(300)` here: `interval` later (`.never`: never).
    nonisolated static func + (deadline: MainQueue.Deadline, interval: DispatchTimeInterval) -> MainQueue.Deadline {
        deadline.adding(interval)
    }
}

extension MainQueue {
    /// What `DispatchQueue.main` is here; for the system's Dispatch queue, `.main.system`.
    typealias UnwrapAs_main_system = MainQueue
    /// What `OperationQueue.main` is here; for the system's, `.main.systemOperationQueue`.
    typealias UnwrapAs_main_systemOperationQueue = MainQueue

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
    nonisolated static var main: MainQueue.UnwrapAs_main_systemOperationQueue { .current }
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

/// `NumberFormatter()` here: a formatter in the current region's locale.
nonisolated final class RegionalNumberFormatter: Foundation.NumberFormatter, @unchecked Sendable {
    override init() {
        super.init()
        locale = Region.current.locale
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
    }
}

// MARK: System APIs that would take the system's main queue in their own parameter's type.

extension Dispatch.DispatchQueue {
    /// `.main` where a Dispatch queue is expected: the current main queue, so that
    /// `group.notify(queue: .main)` is ambient, and a system API's `.main` a compile error.
    /// (`.global()` cannot be taken over so: Swift lets no declaration of a module hide a
    /// method of the same signature that another module's type has unless it is available.
    /// `group.notify(queue: .global())` carries, through Ambient's own `notify`; another
    /// system API's `.global()` is the system's queue, as the guide says.)
    nonisolated static var main: MainQueue.UnwrapAs_main_system { .current }
}

extension DispatchGroup {
    /// `group.notify(queue: .global())` here: carried. Without it Swift prefers Dispatch's own
    /// `notify`, whose parameter takes `.global()` as the system's queue, to Ambient's. Swift
    /// prefers this one only while it has fewer defaulted parameters than Dispatch's, so it
    /// takes the file and not the line: a report of the work left pending names the file.
    nonisolated func notify(
        queue: CarryingQueue, fileID: StaticString = #fileID,
        execute work: @escaping @Sendable () -> Void
    ) {
        notify(qos: .unspecified, flags: [], queue: queue, fileID: fileID, line: 0, execute: work)
    }
}

// MARK: Where a system API meets a shadowed value: a message that says how to unwrap it.

extension DispatchPredicate {
    /// `dispatchPrecondition(condition: .onQueue(queue))` with this module's queue.
    @available(*, unavailable, message: "a CarryingQueue is not a Dispatch queue: write .onQueue(queue.queue)")
    nonisolated static func onQueue(_ queue: CarryingQueue) -> DispatchPredicate { fatalError("unavailable") }
    /// `.notOnQueue(queue)` with this module's queue.
    @available(*, unavailable, message: "a CarryingQueue is not a Dispatch queue: write .notOnQueue(queue.queue)")
    nonisolated static func notOnQueue(_ queue: CarryingQueue) -> DispatchPredicate { fatalError("unavailable") }
}

extension RunLoop {
    /// `RunLoop.main.add(timer, forMode:)` with this module's timer (`Timer(fire:interval:…)`):
    /// scheduled on the current main queue.
    nonisolated func add(_ timer: MainQueue.Timer, forMode mode: RunLoop.Mode) {
        MainQueue.current.add(timer)
    }
}

extension NetworkSession {
    /// `URLSession(configuration:…)` here.
    @available(
        *, unavailable,
        message: "URLSession is Ambient's NetworkSession here: write URLSession(session: .init(configuration: …))"
    )
    nonisolated init(
        configuration: URLSessionConfiguration, delegate: (any URLSessionDelegate)? = nil,
        delegateQueue: Foundation.OperationQueue? = nil
    ) { fatalError("unavailable") }
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
    /// `Data(contentsOf:)` here: through the current file system. Swift finds Foundation's
    /// too, so a call is ambiguous, a compile error (`FileManager.default.contents(of: url)`
    /// is the edit); without this, it would read the real disk unseen.
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
