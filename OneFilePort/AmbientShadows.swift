// SPDX-License-Identifier: Apache-2.0
// Ambient's one-file port, version 3: copy this file, unchanged, into a module that reads the
// system's singletons. Inside that module only, the names below become Ambient's, so its code
// reads what the running test (or app) injected; no call site changes, the module does what
// it did until something is injected, and nothing outside the module sees a difference (a
// test target that says `@testable import` of the module adds AmbientSystemNames.swift, the
// file beside this one). What it covers, what still needs an edit and why: "The one-file
// port" in the article Migrating from a Swizzled Singleton. In Ambient's repository, the
// ports that test this file link to it.

import Ambient
import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: Types whose initialisers legacy code calls: the name itself is Ambient's.
// Each name is internal: a public declaration of the module that names one is an error whose
// note shows the name's line and the comment above it, which says what to write there instead
// (Ambient's type or Dispatch's, whose calls here are carried; for the formatters,
// Foundation's, which the module's formatters are subclasses of).
// A value of one of them handed to an API that needs the system's type is a compile error that
// names the Ambient type ("cannot convert value of type 'DispatchQueue' (aka 'CarryingQueue')…");
// where an accessor made the value, its type's name says how to reach the system's object
// ("…of type 'Defaults.UnwrapAs_Foundation_UserDefaults_standard'…": write
// `Foundation.UserDefaults.standard`). The guide's table lists each.

// in public API: Ambient.Defaults
@usableFromInline typealias UserDefaults = Ambient.Defaults
// in public API: Ambient.Notifications
@usableFromInline typealias NotificationCenter = Ambient.Notifications
// in public API: Ambient.FileSystem
@usableFromInline typealias FileManager = Ambient.FileSystem
// in public API: Ambient.ProcessEnvironment
@usableFromInline typealias ProcessInfo = Ambient.ProcessEnvironment
// in public API: Ambient.NetworkSession
@usableFromInline typealias URLSession = Ambient.NetworkSession
// in public API: Dispatch.DispatchQueue (a value of this one: .queue)
@usableFromInline typealias DispatchQueue = Ambient.CarryingQueue
// in public API: Ambient.CarryingOperationQueue
@usableFromInline typealias OperationQueue = Ambient.CarryingOperationQueue
// in public API: Ambient.CarryingThread
@usableFromInline typealias Thread = Ambient.CarryingThread
// in public API: Ambient.MainQueue.Timer
@usableFromInline typealias Timer = Ambient.MainQueue.Timer
// in public API: Foundation.DateFormatter
@usableFromInline typealias DateFormatter = RegionalDateFormatter
// in public API: Foundation.NumberFormatter
@usableFromInline typealias NumberFormatter = RegionalNumberFormatter

// MARK: The singletons' accessors, through those names.

extension Ambient.Defaults {
    /// What `UserDefaults.standard` is here; for the system's, `Foundation.UserDefaults.standard`.
    @usableFromInline
    typealias UnwrapAs_Foundation_UserDefaults_standard = Ambient.Defaults
    /// `UserDefaults.standard` here: the current defaults wherever it is used (kept in a
    /// property, it still follows the running test).
    @usableFromInline
    nonisolated static var standard: UnwrapAs_Foundation_UserDefaults_standard { .followingCurrent }

    /// `UserDefaults(suiteName:)` has no ambient form: a suite is the live one's.
    @available(*, unavailable, message: "no ambient suite: UserDefaults.suite(name) is the live one, as Defaults")
    @usableFromInline
    nonisolated init?(suiteName: String?) { fatalError("unavailable") }
}

extension Ambient.Notifications {
    /// What `NotificationCenter.default` is here; for its system center, `.center`.
    @usableFromInline
    typealias UnwrapAs_default_center = Ambient.Notifications
    /// `NotificationCenter.default` here: the current notifications wherever it is used.
    @usableFromInline
    nonisolated static var `default`: UnwrapAs_default_center { .followingCurrent }
}

extension Ambient.FileSystem {
    /// What `FileManager.default` is here; for the system's, `Foundation.FileManager.default`.
    @usableFromInline
    typealias UnwrapAs_Foundation_FileManager_default = Ambient.FileSystem
    /// `FileManager.default` here: the current file system wherever it is used.
    @usableFromInline
    nonisolated static var `default`: UnwrapAs_Foundation_FileManager_default { .followingCurrent }
}

extension Ambient.ProcessEnvironment {
    /// What `ProcessInfo.processInfo` is here; for the system's, `Foundation.ProcessInfo.processInfo`.
    @usableFromInline
    typealias UnwrapAs_Foundation_ProcessInfo_processInfo = Ambient.ProcessEnvironment
    /// `ProcessInfo.processInfo` here: the current environment wherever it is used.
    @usableFromInline
    nonisolated static var processInfo: UnwrapAs_Foundation_ProcessInfo_processInfo { .followingCurrent }
    /// `ProcessInfo.processInfo.environment` here.
    @usableFromInline
    nonisolated var environment: [String: String] { variables }
}

extension Ambient.NetworkSession {
    /// What `URLSession.shared` is here; for the system's, `Foundation.URLSession.shared`
    /// (`FoundationNetworking.URLSession.shared` on Linux).
    @usableFromInline
    typealias UnwrapAs_Foundation_URLSession_shared = Ambient.NetworkSession
    /// `URLSession.shared` here: the current session wherever it is used.
    @usableFromInline
    nonisolated static var shared: UnwrapAs_Foundation_URLSession_shared { .followingCurrent }
}

extension Ambient.CarryingQueue {
    /// `DispatchQueue.main` here: the current main queue wherever it is used.
    @usableFromInline
    nonisolated static var main: Ambient.MainQueue.UnwrapAs_main_system { .followingCurrent }
    /// `DispatchQueue.Attributes` here.
    @usableFromInline
    typealias Attributes = Dispatch.DispatchQueue.Attributes
}

/// The module's queues and its main queue: `asyncAfter(wallDeadline:…)` on either is an error
/// that names its fix, since no test clock runs a wall-clock time.
protocol WallDeadlineRefused {}

extension WallDeadlineRefused {
    /// `queue.asyncAfter(wallDeadline:…)` here.
    @available(
        *, unavailable,
        message: "a wall-clock deadline has no test-clock form: write asyncAfter(deadline: .now() + seconds)"
    )
    nonisolated func asyncAfter(
        wallDeadline: DispatchWallTime, qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
        execute work: @escaping @Sendable () -> Void
    ) { fatalError("unavailable") }
}

extension Ambient.CarryingQueue: WallDeadlineRefused {}
extension Ambient.MainQueue: WallDeadlineRefused {}

extension Ambient.CarryingThread {
    /// `Thread.current` here: the running thread (the system's).
    @usableFromInline
    nonisolated static var current: Foundation.Thread { .current }
    /// `Thread.isMainThread` here.
    @usableFromInline
    nonisolated static var isMainThread: Bool { Foundation.Thread.isMainThread }
    /// `Thread.sleep(forTimeInterval:)` here: a sleep on the current clock (a test clock's
    /// sleep waits for its `advance`).
    @usableFromInline
    nonisolated static func sleep(forTimeInterval interval: TimeInterval) {
        try? Ambient.Clock.current.sleep(for: .seconds(interval))
    }
}

extension Ambient.MainQueue.Timer {
    /// What `Timer.scheduledTimer(…)` makes here; for a system timer, `Foundation.Timer`.
    @usableFromInline
    typealias UnwrapAs_Foundation_Timer = Ambient.MainQueue.Timer

    /// `Timer.scheduledTimer(withTimeInterval:repeats:block:)` here: on the current main queue.
    @discardableResult
    @usableFromInline
    nonisolated static func scheduledTimer(
        withTimeInterval interval: TimeInterval, repeats: Bool,
        block: @escaping @MainActor @Sendable (Ambient.MainQueue.Timer) -> Void
    ) -> UnwrapAs_Foundation_Timer {
        Ambient.MainQueue.current.scheduledTimer(withTimeInterval: interval, repeats: repeats, block: block)
    }
}

// A file that does not import Ambient does not see the operators its types declare: the
// deadlines' `+` again, for `.now() + 5` and `.now() + .milliseconds(300)` in such a file.
extension Ambient.MainQueue.Deadline {
    /// `.now() + 5` here: `seconds` later.
    @usableFromInline
    nonisolated static func + (deadline: Ambient.MainQueue.Deadline, seconds: Double) -> Ambient.MainQueue.Deadline {
        deadline.adding(seconds: seconds)
    }

    /// `.now() + .milliseconds(300)` here: `interval` later (`.never`: never).
    @usableFromInline
    nonisolated static func + (
        deadline: Ambient.MainQueue.Deadline, interval: DispatchTimeInterval
    ) -> Ambient.MainQueue.Deadline {
        deadline.adding(interval)
    }
}

extension Ambient.MainQueue {
    /// What `DispatchQueue.main` is here; for the system's Dispatch queue, `.main.system`.
    @usableFromInline
    typealias UnwrapAs_main_system = Ambient.MainQueue
    /// What `OperationQueue.main` is here; for the system's, `.main.systemOperationQueue`.
    @usableFromInline
    typealias UnwrapAs_main_systemOperationQueue = Ambient.MainQueue

    /// `.main` where this module passes a main queue (`group.notify(queue: .main)`): the
    /// current main queue wherever it is used.
    @usableFromInline
    nonisolated static var main: Ambient.MainQueue { .followingCurrent }

    /// `OperationQueue.main.addOperation` here: the current main queue's `async`.
    @usableFromInline
    nonisolated func addOperation(_ block: @escaping @MainActor @Sendable () -> Void) {
        async(execute: block)
    }

    /// `OperationQueue.main.addOperation(operation)` here: started on the current main queue.
    @usableFromInline
    nonisolated func addOperation(_ operation: Operation) {
        async { operation.start() }
    }

    /// `DispatchQueue.main.async(execute: workItem)` here: performed on the current main queue.
    @usableFromInline
    nonisolated func async(execute item: DispatchWorkItem) {
        // Dispatch documents work items as safe to perform from any thread.
        nonisolated(unsafe) let item = item
        async { item.perform() }
    }

    /// `DispatchQueue.main.asyncAfter(deadline:execute: workItem)` here.
    @usableFromInline
    nonisolated func asyncAfter(deadline: Deadline, execute item: DispatchWorkItem) {
        nonisolated(unsafe) let item = item
        asyncAfter(deadline: deadline) { item.perform() }
    }
}

extension Foundation.OperationQueue {
    /// `OperationQueue.main` here: the current main queue wherever it is used.
    @usableFromInline
    nonisolated static var main: Ambient.MainQueue.UnwrapAs_main_systemOperationQueue { .followingCurrent }
}

/// `DateFormatter()` here: a formatter in the region current wherever it is used, so that one
/// made before a test (a formatter kept in a property, a static) formats in the running test's
/// region. The locale, time zone or calendar the module sets itself stays set. With no region
/// injected, it is Foundation's formatter as Foundation makes it.
@usableFromInline
nonisolated final class RegionalDateFormatter: Foundation.DateFormatter, @unchecked Sendable {
    // @unchecked: `following` is only touched under `region`'s lock (or in `init`).
    private let region = FollowedRegion()
    private var following = (locale: true, timeZone: true, calendar: true)
    private var made: (locale: Locale?, timeZone: TimeZone?, calendar: Calendar?) = (nil, nil, nil)

    @usableFromInline
    override init() {
        super.init()
        following = (true, true, true)
        made = (super.locale, super.timeZone, super.calendar)
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    override var locale: Locale! {
        get { super.locale }
        set { region.setting { (following.locale, super.locale) = (false, newValue) } }
    }

    override var timeZone: TimeZone! {
        get { super.timeZone }
        set { region.setting { (following.timeZone, super.timeZone) = (false, newValue) } }
    }

    override var calendar: Calendar! {
        get { super.calendar }
        set { region.setting { (following.calendar, super.calendar) = (false, newValue) } }
    }

    override func string(from date: Date) -> String {
        region.using(taking: take) { super.string(from: date) }
    }

    override func date(from string: String) -> Date? {
        region.using(taking: take) { super.date(from: string) }
    }

    /// Takes `current`'s settings for what the module has not set (Foundation's, as made, for
    /// the live region).
    private func take(_ current: Ambient.Region) {
        let live = current.isLive
        if following.locale { super.locale = live ? made.locale : current.locale }
        if following.timeZone { super.timeZone = live ? made.timeZone : current.timeZone }
        if following.calendar { super.calendar = live ? made.calendar : current.calendar }
    }
}

/// `NumberFormatter()` here: a formatter in the locale of the region current wherever it is
/// used (unless the module sets its own); with no region injected, Foundation's formatter as
/// Foundation makes it.
@usableFromInline
nonisolated final class RegionalNumberFormatter: Foundation.NumberFormatter, @unchecked Sendable {
    // @unchecked: `following` is only touched under `region`'s lock (or in `init`).
    private let region = FollowedRegion()
    private var following = true
    private var made: Locale?

    @usableFromInline
    override init() {
        super.init()
        following = true
        made = super.locale
    }

    required init?(coder: NSCoder) {
        super.init(coder: coder)
    }

    override var locale: Locale! {
        get { super.locale }
        set { region.setting { (following, super.locale) = (false, newValue) } }
    }

    override func string(from number: NSNumber) -> String? {
        region.using(taking: take) { super.string(from: number) }
    }

    override func number(from string: String) -> NSNumber? {
        region.using(taking: take) { super.number(from: string) }
    }

    /// Takes `current`'s locale unless the module set its own.
    private func take(_ current: Ambient.Region) {
        if following { super.locale = current.isLive ? made : current.locale }
    }
}

/// What a formatter here follows: the region it took last, and one lock around its uses and
/// the settings the module makes, so one formatter shared by parallel tests formats each call
/// in its caller's region.
nonisolated final class FollowedRegion: @unchecked Sendable {
    // @unchecked: `taken` is only touched with `lock` held.
    private let lock = NSLock()
    private var taken = Ambient.Region.live

    /// `body`, once `take` has had the current region if it is not the one it had last.
    func using<R>(taking take: (Ambient.Region) -> Void, _ body: () -> R) -> R {
        lock.withLock {
            let current = Ambient.Region.current
            if current != taken {
                taken = current
                take(current)
            }
            return body()
        }
    }

    /// `change` under the lock: a setting the module makes itself.
    func setting(_ change: () -> Void) {
        lock.withLock(change)
    }
}

// MARK: System APIs that would take the system's main queue in their own parameter's type.

extension Dispatch.DispatchQueue {
    /// `.main` where a Dispatch queue is expected: the current main queue wherever it is used,
    /// so that `group.notify(queue: .main)` is ambient, and a system API's `.main` a compile
    /// error.
    /// (`.global()` cannot be taken over so: Swift lets no declaration of a module hide a
    /// method of the same signature that another module's type has unless it is available.
    /// `group.notify(queue: .global())` carries, through Ambient's own `notify`; another
    /// system API's `.global()` is the system's queue, as the guide says.)
    @usableFromInline
    nonisolated static var main: Ambient.MainQueue.UnwrapAs_main_system { .followingCurrent }
}

// A Dispatch queue the module did not make itself (one handed in, a `public` property typed
// `Dispatch.DispatchQueue`, `CarryingQueue.queue`): its calls here have Dispatch's own signatures,
// so Swift takes these rather than Dispatch's, and they carry as a module queue's do (the main
// queue's go to the current main queue).
extension Dispatch.DispatchQueue {
    /// Whether this is the system's main queue.
    nonisolated private var isMain: Bool { self === Ambient.MainQueue.live.system }

    /// `queue.async(group:qos:flags:execute:)` here: carried.
    @usableFromInline
    nonisolated func async(
        group: DispatchGroup? = nil, qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
        execute work: @escaping @Sendable @convention(block) () -> Void
    ) {
        if isMain, group == nil {
            Ambient.MainQueue.followingCurrent.async { work() }
        } else {
            Ambient.CarryingQueue(self).async(group: group, qos: qos, flags: flags, execute: work)
        }
    }

    /// `queue.asyncAfter(deadline:qos:flags:execute:)` here: carried.
    @usableFromInline
    nonisolated func asyncAfter(
        deadline: DispatchTime, qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
        execute work: @escaping @Sendable @convention(block) () -> Void
    ) {
        if isMain {
            Ambient.MainQueue.followingCurrent.asyncAfter(deadline: Ambient.MainQueue.Deadline(deadline)) { work() }
        } else {
            Ambient.CarryingQueue(self).asyncAfter(
                deadline: Ambient.MainQueue.Deadline(deadline), qos: qos, flags: flags, execute: work)
        }
    }

    /// `queue.sync(execute:)` here: in the caller's scope.
    @usableFromInline
    nonisolated func sync<T>(execute work: () throws -> T) rethrows -> T {
        try Ambient.CarryingQueue(self).sync(execute: work)
    }

    /// `queue.sync(flags:execute:)` here: in the caller's scope.
    @usableFromInline
    nonisolated func sync<T>(flags: DispatchWorkItemFlags, execute work: () throws -> T) rethrows -> T {
        try Ambient.CarryingQueue(self).sync(flags: flags, execute: work)
    }
}

extension DispatchGroup {
    /// `group.notify(qos:flags:queue:execute:)` on a Dispatch queue here (Dispatch's own
    /// signature, so Swift takes this one): carried, as on a module queue; on the main queue,
    /// the current main queue's.
    @usableFromInline
    nonisolated func notify(
        qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], queue: Dispatch.DispatchQueue,
        execute work: @escaping @convention(block) () -> Void
    ) {
        // Dispatch's parameter is not `@Sendable`, Ambient's is: the block runs once, on the
        // queue Dispatch would run it on.
        nonisolated(unsafe) let work = work
        if queue === Ambient.MainQueue.live.system {
            notify(queue: Ambient.MainQueue.followingCurrent, fileID: #fileID, line: 0) { work() }
        } else {
            notify(qos: qos, flags: flags, queue: Ambient.CarryingQueue(queue), fileID: #fileID, line: 0) { work() }
        }
    }

    /// `group.notify(queue: .global())` here: carried. Without it Swift prefers Dispatch's own
    /// `notify`, whose parameter takes `.global()` as the system's queue, to Ambient's. Swift
    /// prefers this one only while it has fewer defaulted parameters than Dispatch's, so it
    /// takes the file and not the line: a report of the work left pending names the file.
    @usableFromInline
    nonisolated func notify(
        queue: Ambient.CarryingQueue, fileID: StaticString = #fileID,
        execute work: @escaping @Sendable () -> Void
    ) {
        notify(qos: .unspecified, flags: [], queue: queue, fileID: fileID, line: 0, execute: work)
    }
}

extension DispatchWorkItem {
    /// `item.notify(queue: .global())` here: carried, as the group's is (and preferred to
    /// Dispatch's for the same reason).
    @usableFromInline
    nonisolated func notify(
        queue: Ambient.CarryingQueue, fileID: StaticString = #fileID,
        execute work: @escaping @Sendable () -> Void
    ) {
        notify(qos: .unspecified, flags: [], queue: queue, fileID: fileID, line: 0, execute: work)
    }
}

extension DispatchSource {
    /// `DispatchSource.makeTimerSource(queue:)` with a queue of the module's: on its Dispatch
    /// queue (disfavoured: with `nil` or `.global()`, Dispatch's). Its handlers are carried, as
    /// every source's are here (below).
    @usableFromInline
    @_disfavoredOverload
    nonisolated static func makeTimerSource(
        flags: DispatchSource.TimerFlags = [], queue: Ambient.CarryingQueue?
    ) -> any DispatchSourceTimer {
        makeTimerSource(flags: flags, queue: queue?.queue)
    }
}

// A Dispatch source's handlers (a timer's ticks, a file descriptor's events) run where Dispatch
// runs them, outside the scope that set them: here they have Dispatch's signatures, so Swift
// takes these, and each handler runs in the scope that set it.
extension DispatchSourceProtocol {
    /// `source.setEventHandler(qos:flags:handler:)` here: `handler` runs in the setter's scope.
    @usableFromInline
    nonisolated func setEventHandler(
        qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], handler: DispatchSourceHandler?
    ) {
        Ambient.SystemSingletons.setEventHandler(on: self, qos: qos, flags: flags, handler: carried(handler))
    }

    /// `source.setCancelHandler(qos:flags:handler:)` here: `handler` runs in the setter's scope.
    @usableFromInline
    nonisolated func setCancelHandler(
        qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], handler: DispatchSourceHandler?
    ) {
        Ambient.SystemSingletons.setCancelHandler(on: self, qos: qos, flags: flags, handler: carried(handler))
    }

    /// `handler`, to run in the scope here (itself when nothing is injected).
    nonisolated private func carried(_ handler: DispatchSourceHandler?) -> DispatchSourceHandler? {
        let context = Ambient.InjectionContext.current
        guard let handler, !context.isEmpty else { return handler }
        return { context.run(handler) }
    }
}

extension RunLoop {
    /// `RunLoop.main.perform { … }` here: on the current main queue (live, the main thread;
    /// driven, when the test clock runs it), in the caller's scope.
    @usableFromInline
    nonisolated func perform(_ block: @escaping @Sendable () -> Void) {
        Ambient.MainQueue.followingCurrent.async { block() }
    }
}

// MARK: Where a system API meets a shadowed value: a message that says how to unwrap it.

extension DispatchPredicate {
    /// `dispatchPrecondition(condition: .onQueue(queue))` with this module's queue.
    @available(*, unavailable, message: "a CarryingQueue is not a Dispatch queue: write .onQueue(queue.queue)")
    @usableFromInline
    nonisolated static func onQueue(_ queue: Ambient.CarryingQueue) -> DispatchPredicate { fatalError("unavailable") }
    /// `.notOnQueue(queue)` with this module's queue.
    @available(*, unavailable, message: "a CarryingQueue is not a Dispatch queue: write .notOnQueue(queue.queue)")
    @usableFromInline
    nonisolated static func notOnQueue(_ queue: Ambient.CarryingQueue) -> DispatchPredicate {
        fatalError("unavailable")
    }
}

extension RunLoop {
    /// `RunLoop.main.add(timer, forMode:)` with this module's timer (`Timer(fire:interval:…)`):
    /// scheduled on the current main queue.
    @usableFromInline
    nonisolated func add(_ timer: Ambient.MainQueue.Timer, forMode mode: RunLoop.Mode) {
        Ambient.MainQueue.current.add(timer)
    }
}

extension Ambient.NetworkSession {
    /// `URLSession(configuration:…)` here.
    @available(
        *, unavailable,
        message: "URLSession is Ambient's NetworkSession here: write URLSession(session: .init(configuration: …))"
    )
    @usableFromInline
    nonisolated init(
        configuration: URLSessionConfiguration, delegate: (any URLSessionDelegate)? = nil,
        delegateQueue: Foundation.OperationQueue? = nil
    ) { fatalError("unavailable") }
}

// MARK: Values: the system's types, their current values Ambient's.

extension Date {
    /// `Date()` here: the current clock's time.
    @usableFromInline @inline(__always)
    nonisolated init() { self = Ambient.SystemSingletons.clock(reading: "Date()").now }
    /// `Date.now` here.
    @usableFromInline
    nonisolated static var now: Date {
        @inline(__always) get { Ambient.SystemSingletons.clock(reading: "Date.now").now }
    }
    /// `Date(timeIntervalSinceNow:)` here.
    @usableFromInline
    nonisolated init(timeIntervalSinceNow interval: TimeInterval) {
        self = Ambient.SystemSingletons.clock(reading: "Date(timeIntervalSinceNow:)").now.addingTimeInterval(interval)
    }
    /// `date.timeIntervalSinceNow` here.
    @usableFromInline
    nonisolated var timeIntervalSinceNow: TimeInterval {
        timeIntervalSince(Ambient.SystemSingletons.clock(reading: "timeIntervalSinceNow").now)
    }
}

extension UUID {
    /// `UUID()` here: the current generator's next.
    @usableFromInline @inline(__always)
    nonisolated init() { self = Ambient.SystemSingletons.uuidGenerator(reading: "UUID()")() }
}

/// The current region (in the extensions below, `Region` would be `Locale.Region`); the live one
/// where a static's initialiser reads an injected one in a test (reported). Inlined, as the
/// reads above are, so that a shadowed read costs what the explicit spelling costs.
@inline(__always)
nonisolated private func currentRegion(reading read: StaticString) -> Ambient.Region {
    Ambient.SystemSingletons.region(reading: read)
}

// With no region injected, each is the system's own value (`SystemSingletons`), not the live
// region's, which reads the autoupdating ones: `Locale.current` prints as Foundation's does.
extension Locale {
    /// `Locale.current` here: the current region's.
    @usableFromInline @inline(__always)
    nonisolated static var current: Locale {
        let region = currentRegion(reading: "Locale.current")
        return region.isLive ? Ambient.SystemSingletons.locale : region.locale
    }
    /// `Locale.autoupdatingCurrent` here.
    @usableFromInline @inline(__always)
    nonisolated static var autoupdatingCurrent: Locale {
        let region = currentRegion(reading: "Locale.autoupdatingCurrent")
        return region.isLive ? Ambient.SystemSingletons.autoupdatingLocale : region.locale
    }
}

extension TimeZone {
    /// `TimeZone.current` here: the current region's.
    @usableFromInline @inline(__always)
    nonisolated static var current: TimeZone {
        let region = currentRegion(reading: "TimeZone.current")
        return region.isLive ? Ambient.SystemSingletons.timeZone : region.timeZone
    }
    /// `TimeZone.autoupdatingCurrent` here.
    @usableFromInline @inline(__always)
    nonisolated static var autoupdatingCurrent: TimeZone {
        let region = currentRegion(reading: "TimeZone.autoupdatingCurrent")
        return region.isLive ? Ambient.SystemSingletons.autoupdatingTimeZone : region.timeZone
    }
}

extension Calendar {
    /// `Calendar.current` here: the current region's.
    @usableFromInline @inline(__always)
    nonisolated static var current: Calendar {
        let region = currentRegion(reading: "Calendar.current")
        return region.isLive ? Ambient.SystemSingletons.calendar : region.calendar
    }
    /// `Calendar.autoupdatingCurrent` here.
    @usableFromInline @inline(__always)
    nonisolated static var autoupdatingCurrent: Calendar {
        let region = currentRegion(reading: "Calendar.autoupdatingCurrent")
        return region.isLive ? Ambient.SystemSingletons.autoupdatingCalendar : region.calendar
    }
}

extension Data {
    /// `data.write(to:)` here: through the current file system.
    @usableFromInline
    nonisolated func write(to url: URL, options: Data.WritingOptions = []) throws {
        try Ambient.FileSystem.current.write(self, to: url, options: options)
    }
    /// `Data(contentsOf:)` here: through the current file system. (`__shared`, as Foundation
    /// declares its own: the same signature, so this module's wins rather than being ambiguous.)
    @usableFromInline
    nonisolated init(contentsOf url: __shared URL, options: Data.ReadingOptions = []) throws {
        self = try Ambient.FileSystem.current.contents(of: url)
    }
}

// MARK: Free functions: the module's own shadow Swift's and Foundation's.

/// `print` here: with no logger injected (the current one writes where the live one does),
/// Swift's `print`, the same bytes on standard output; else an info entry on the current logger.
@usableFromInline
nonisolated func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    let logger = Ambient.Logger.current
    let message = items.map { "\($0)" }.joined(separator: separator)
    if logger.writesLive {
        Swift.print(message, terminator: terminator)
    } else {
        logger.info(message)
    }
}

/// `NSLog` here: with no logger injected, Foundation's `NSLog`; else an info entry on the
/// current logger, formatted as `NSLog` formats.
// swift-format-ignore: AlwaysUseLowerCamelCase
@usableFromInline
nonisolated func NSLog(_ format: String, _ arguments: CVarArg...) {
    let logger = Ambient.Logger.current
    if logger.writesLive {
        withVaList(arguments) { Foundation.NSLogv(format, $0) }
    } else {
        logger.info(String(format: format, arguments: arguments))
    }
}
