// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Dispatch
import Foundation

// Why: inside a module that adds the one-file port, `Locale.current` and its siblings are the
// file's, and so are they in a test target that adds the test-target file: neither can name
// Foundation's own any more. This module is not shadowed, so it reaches them for both.

/// The system's own values behind the names the one-file port shadows, reached from a module
/// no shadow applies to: what the port's `Locale.current` and its siblings return while the
/// region is live, and what `OneFilePort/AmbientSystemNames.swift` gives a test target.
///
/// ```swift
/// // In the one-file port: the system's value unless a region is injected.
/// static var current: Locale {
///     let region = Region.current
///     return region.isLive ? SystemSingletons.locale : region.locale
/// }
/// ```
public enum SystemSingletons {
    /// Foundation's `Locale.current`.
    public static var locale: Locale { .current }
    /// Foundation's `Locale.autoupdatingCurrent`.
    public static var autoupdatingLocale: Locale { .autoupdatingCurrent }
    /// Foundation's `TimeZone.current`.
    public static var timeZone: TimeZone { .current }
    /// Foundation's `TimeZone.autoupdatingCurrent`.
    public static var autoupdatingTimeZone: TimeZone { .autoupdatingCurrent }
    /// Foundation's `Calendar.current`.
    public static var calendar: Calendar { .current }
    /// Foundation's `Calendar.autoupdatingCurrent`.
    public static var autoupdatingCalendar: Calendar { .autoupdatingCurrent }
    /// Dispatch's `queue.async(group:qos:flags:execute:)`.
    public static func async(
        on queue: DispatchQueue, group: DispatchGroup? = nil, qos: DispatchQoS = .unspecified,
        flags: DispatchWorkItemFlags = [], execute work: @escaping @Sendable @convention(block) () -> Void
    ) {
        queue.async(group: group, qos: qos, flags: flags, execute: work)
    }
    /// Dispatch's `queue.asyncAfter(deadline:qos:flags:execute:)`.
    public static func asyncAfter(
        on queue: DispatchQueue, deadline: DispatchTime, qos: DispatchQoS = .unspecified,
        flags: DispatchWorkItemFlags = [], execute work: @escaping @Sendable @convention(block) () -> Void
    ) {
        queue.asyncAfter(deadline: deadline, qos: qos, flags: flags, execute: work)
    }
    /// Dispatch's `queue.sync(flags:execute:)`.
    public static func sync<T>(
        on queue: DispatchQueue, flags: DispatchWorkItemFlags = [], execute work: () throws -> T
    ) rethrows -> T {
        try queue.sync(flags: flags, execute: work)
    }
    /// Dispatch's `group.notify(qos:flags:queue:execute:)`.
    public static func notify(
        _ group: DispatchGroup, qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
        queue: DispatchQueue, execute work: @escaping @convention(block) () -> Void
    ) {
        group.notify(qos: qos, flags: flags, queue: queue, execute: work)
    }
    /// Dispatch's `source.setEventHandler(qos:flags:handler:)`.
    public static func setEventHandler(
        on source: some DispatchSourceProtocol, qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
        handler: DispatchSourceHandler?
    ) {
        source.setEventHandler(qos: qos, flags: flags, handler: handler)
    }
    /// Dispatch's `source.setCancelHandler(qos:flags:handler:)`.
    public static func setCancelHandler(
        on source: some DispatchSourceProtocol, qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
        handler: DispatchSourceHandler?
    ) {
        source.setCancelHandler(qos: qos, flags: flags, handler: handler)
    }
    /// Foundation's `runLoop.perform(_:)`.
    public static func perform(on runLoop: RunLoop, _ block: @escaping @Sendable () -> Void) {
        runLoop.perform(block)
    }
    /// Foundation's `Data(contentsOf:options:)`: the real disk.
    public static func contents(of url: URL, options: Data.ReadingOptions = []) throws -> Data {
        try Data(contentsOf: url, options: options)
    }
    /// Foundation's `data.write(to:options:)`: the real disk.
    public static func write(_ data: Data, to url: URL, options: Data.WritingOptions = []) throws {
        try data.write(to: url, options: options)
    }
}

extension SystemSingletons {
    /// `Clock.current`, for the one-file port's `Date()` and its siblings; but in a test, where
    /// a static's or global's one-time initialiser reads an injected clock, the live clock, and
    /// the read reported (a static keeps what it first reads, for every later test).
    ///
    /// ```swift
    /// // In the one-file port:
    /// init() { self = SystemSingletons.clock(reading: "Date()").now }
    /// ```
    @inlinable @inline(__always)
    public static func clock(reading read: StaticString) -> Clock {
        let clock = Clock.current
        if _slowPath(RunningTest.isLoaded) { return StaticInitialiserReads.checked(clock, read) }
        return clock
    }

    /// `Region.current`, for the one-file port's `Locale.current` and its siblings; the live
    /// region where a static's initialiser reads an injected one in a test (see
    /// ``clock(reading:)``).
    @inlinable @inline(__always)
    public static func region(reading read: StaticString) -> Region {
        let region = Region.current
        if _slowPath(RunningTest.isLoaded) { return StaticInitialiserReads.checked(region, read) }
        return region
    }

    /// `UUIDGenerator.current`, for the one-file port's `UUID()`; the live generator where a
    /// static's initialiser reads an injected one in a test (see ``clock(reading:)``).
    @inlinable @inline(__always)
    public static func uuidGenerator(reading read: StaticString) -> UUIDGenerator {
        let generator = UUIDGenerator.current
        if _slowPath(RunningTest.isLoaded) { return StaticInitialiserReads.checked(generator, read) }
        return generator
    }
}
