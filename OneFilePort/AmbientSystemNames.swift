// SPDX-License-Identifier: Apache-2.0
// Ambient's one-file port, the test-target file, version 3 (AmbientShadows.swift's): copy this
// file, unchanged, into a test target that says `@testable import` of a module ported with
// AmbientShadows.swift (and list the `Ambient` product in that target's dependencies).
// `@testable import` shows the test files the port's internal names beside the system's, so
// `Date()`, `FileManager.default` and their siblings would be ambiguous there, and `print` or
// `DispatchQueue(label:)` would silently be the port's. A test target's own declarations win
// over every module it imports: here each name is the system's again, so the target's tests
// compile and run as they did before the port. A test target with no `@testable import` of a
// ported module does not need it.

import Ambient
import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: The types: the system's.

typealias UserDefaults = Foundation.UserDefaults
typealias NotificationCenter = Foundation.NotificationCenter
typealias FileManager = Foundation.FileManager
typealias ProcessInfo = Foundation.ProcessInfo
#if canImport(FoundationNetworking)
typealias URLSession = FoundationNetworking.URLSession
#else
typealias URLSession = Foundation.URLSession
#endif
typealias DispatchQueue = Dispatch.DispatchQueue
typealias OperationQueue = Foundation.OperationQueue
typealias Thread = Foundation.Thread
typealias Timer = Foundation.Timer
typealias DateFormatter = Foundation.DateFormatter
typealias NumberFormatter = Foundation.NumberFormatter

// MARK: The system's members that the port gives its own of the same signature: the system's
// values again, reached through `SystemSingletons` (here the names themselves are these).

extension Dispatch.DispatchQueue {
    /// `DispatchQueue.main`: Dispatch's.
    nonisolated static var main: Dispatch.DispatchQueue { Ambient.MainQueue.live.system }
}

extension Dispatch.DispatchQueue {
    /// `queue.async(group:qos:flags:execute:)`: Dispatch's.
    nonisolated func async(
        group: DispatchGroup? = nil, qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
        execute work: @escaping @Sendable @convention(block) () -> Void
    ) {
        SystemSingletons.async(on: self, group: group, qos: qos, flags: flags, execute: work)
    }
    /// `queue.asyncAfter(deadline:qos:flags:execute:)`: Dispatch's.
    nonisolated func asyncAfter(
        deadline: DispatchTime, qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
        execute work: @escaping @Sendable @convention(block) () -> Void
    ) {
        SystemSingletons.asyncAfter(on: self, deadline: deadline, qos: qos, flags: flags, execute: work)
    }
    /// `queue.sync(execute:)`: Dispatch's.
    nonisolated func sync<T>(execute work: () throws -> T) rethrows -> T {
        try SystemSingletons.sync(on: self, execute: work)
    }
    /// `queue.sync(flags:execute:)`: Dispatch's.
    nonisolated func sync<T>(flags: DispatchWorkItemFlags, execute work: () throws -> T) rethrows -> T {
        try SystemSingletons.sync(on: self, flags: flags, execute: work)
    }
}

extension DispatchSourceProtocol {
    /// `source.setEventHandler(qos:flags:handler:)`: Dispatch's.
    nonisolated func setEventHandler(
        qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], handler: DispatchSourceHandler?
    ) {
        SystemSingletons.setEventHandler(on: self, qos: qos, flags: flags, handler: handler)
    }
    /// `source.setCancelHandler(qos:flags:handler:)`: Dispatch's.
    nonisolated func setCancelHandler(
        qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], handler: DispatchSourceHandler?
    ) {
        SystemSingletons.setCancelHandler(on: self, qos: qos, flags: flags, handler: handler)
    }
}

extension DispatchWorkItem {
    /// `item.notify(queue:execute:)`: Dispatch's.
    nonisolated func notify(queue: Dispatch.DispatchQueue, execute work: @escaping @convention(block) () -> Void) {
        notify(qos: .unspecified, flags: [], queue: queue, execute: work)
    }
}

extension RunLoop {
    /// `runLoop.perform(_:)`: Foundation's.
    nonisolated func perform(_ block: @escaping @Sendable () -> Void) {
        SystemSingletons.perform(on: self, block)
    }
}

extension Foundation.OperationQueue {
    /// `OperationQueue.main`: Foundation's.
    nonisolated static var main: Foundation.OperationQueue { Ambient.MainQueue.live.systemOperationQueue }
}

extension DispatchGroup {
    /// `group.notify(queue:execute:)`: Dispatch's (preferred to the port's, which has a
    /// defaulted parameter this one lacks).
    nonisolated func notify(queue: Dispatch.DispatchQueue, execute work: @escaping @convention(block) () -> Void) {
        SystemSingletons.notify(self, queue: queue, execute: work)
    }
    /// `group.notify(qos:flags:queue:execute:)`: Dispatch's.
    nonisolated func notify(
        qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], queue: Dispatch.DispatchQueue,
        execute work: @escaping @convention(block) () -> Void
    ) {
        SystemSingletons.notify(self, qos: qos, flags: flags, queue: queue, execute: work)
    }
}

extension Date {
    /// `Date()`: Foundation's.
    nonisolated init() { self = Ambient.Clock.live.now }
    /// `Date.now`: Foundation's.
    nonisolated static var now: Date { Ambient.Clock.live.now }
    /// `Date(timeIntervalSinceNow:)`: Foundation's.
    nonisolated init(timeIntervalSinceNow interval: TimeInterval) {
        self = Ambient.Clock.live.now.addingTimeInterval(interval)
    }
    /// `date.timeIntervalSinceNow`: Foundation's.
    nonisolated var timeIntervalSinceNow: TimeInterval { timeIntervalSince(Ambient.Clock.live.now) }
}

extension UUID {
    /// `UUID()`: Foundation's.
    nonisolated init() { self = Ambient.UUIDGenerator.live() }
}

extension Locale {
    /// `Locale.current`: Foundation's.
    nonisolated static var current: Locale { SystemSingletons.locale }
    /// `Locale.autoupdatingCurrent`: Foundation's.
    nonisolated static var autoupdatingCurrent: Locale { SystemSingletons.autoupdatingLocale }
}

extension TimeZone {
    /// `TimeZone.current`: Foundation's.
    nonisolated static var current: TimeZone { SystemSingletons.timeZone }
    /// `TimeZone.autoupdatingCurrent`: Foundation's.
    nonisolated static var autoupdatingCurrent: TimeZone { SystemSingletons.autoupdatingTimeZone }
}

extension Calendar {
    /// `Calendar.current`: Foundation's.
    nonisolated static var current: Calendar { SystemSingletons.calendar }
    /// `Calendar.autoupdatingCurrent`: Foundation's.
    nonisolated static var autoupdatingCurrent: Calendar { SystemSingletons.autoupdatingCalendar }
}

extension Data {
    /// `data.write(to:options:)`: Foundation's, on the real disk.
    nonisolated func write(to url: URL, options: Data.WritingOptions = []) throws {
        try SystemSingletons.write(self, to: url, options: options)
    }
    /// `Data(contentsOf:options:)`: Foundation's, from the real disk.
    nonisolated init(contentsOf url: __shared URL, options: Data.ReadingOptions = []) throws {
        self = try SystemSingletons.contents(of: url, options: options)
    }
}

// MARK: The free functions: Swift's and Foundation's.

/// `print`: Swift's, the same bytes on standard output.
nonisolated func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    Swift.print(items.map { "\($0)" }.joined(separator: separator), terminator: terminator)
}

/// `NSLog`: Foundation's.
// swift-format-ignore: AlwaysUseLowerCamelCase
nonisolated func NSLog(_ format: String, _ arguments: CVarArg...) {
    withVaList(arguments) { Foundation.NSLogv(format, $0) }
}
