// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import Foundation

// Why: code that formats dates reads `Locale.current`, `TimeZone.current` and
// `Calendar.current`, so its tests pass on a UTC build machine and fail in Auckland. One
// ambient value carries all three (a calendar carries its locale and time zone).

/// The ambient locale, time zone and calendar: read it where code used to read
/// `Locale.current`, `TimeZone.current` or `Calendar.current`.
///
/// ```swift
/// func receiptDate(_ date: Date) -> String {
///     date.formatted(Region.current.formatStyle(date: .abbreviated, time: .shortened))
/// }
///
/// // The same string on every machine, whatever its TZ and LANG:
/// withInjected(Region.fixed(locale: Locale(identifier: "en_US"), timeZone: .gmt)) {
///     #expect(receiptDate(Date(timeIntervalSince1970: 0)) == "Jan 1, 1970 at 12:00 AM")
/// }
/// ```
///
/// The live value (``live``, the default) follows the process: each property reads the
/// system's current setting when it is read (`Locale.autoupdatingCurrent` and its
/// siblings), so a live `Region` kept in a variable still follows a change of time zone.
/// A fixed region (``fixed(locale:timeZone:calendar:)``, ``init(calendar:)``) is the same
/// everywhere.
public struct Region: AmbientValue, Hashable, CustomStringConvertible {
    /// A fixed region's calendar (its locale and time zone set), behind one reference, or
    /// `.live` (``LiveOr`` says why not an optional).
    @usableFromInline
    let state: LiveOr<Box>

    /// One reference to a fixed region's calendar.
    @usableFromInline
    final class Box: Sendable {
        let calendar: Calendar
        init(_ calendar: Calendar) {
            self.calendar = calendar
        }
    }

    private var fixedCalendar: Calendar? {
        state.object?.calendar
    }

    /// Whether this is the live region (``live``): what the one-file port's `Locale.current`
    /// and its siblings check, to return the system's own value then (one test, no compare).
    ///
    /// ```swift
    /// let locale = Region.current.isLive ? Locale.current : Region.current.locale
    /// ```
    @inlinable
    public var isLive: Bool {
        if case .live = state { return true }
        return false
    }

    /// Equal when they read the same way: both live, or the same calendar.
    public static func == (lhs: Region, rhs: Region) -> Bool {
        lhs.fixedCalendar == rhs.fixedCalendar
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(fixedCalendar)
    }

    /// The region a calendar describes: its locale (`calendar.locale`, or `en_US_POSIX` when
    /// it has none) and its time zone.
    public init(calendar: Calendar) {
        var calendar = calendar
        if calendar.locale == nil { calendar.locale = Locale(identifier: "en_US_POSIX") }
        state = .object(Box(calendar))
    }

    @inlinable
    init(live: Void) {
        state = .live
    }

    /// A fixed region: `locale`, `timeZone`, and a calendar of kind `calendar` (Gregorian
    /// by default) carrying both.
    public static func fixed(
        locale: Locale, timeZone: TimeZone, calendar: Calendar.Identifier = .gregorian
    ) -> Region {
        var value = Calendar(identifier: calendar)
        value.locale = locale
        value.timeZone = timeZone
        return Region(calendar: value)
    }

    /// `en_US_POSIX`, UTC, Gregorian: the region for machine-readable text, and a good
    /// default for tests that do not care.
    public static let posixUTC = Region.fixed(locale: Locale(identifier: "en_US_POSIX"), timeZone: .gmt)

    /// The process's region, read when each property is read.
    public static let live = Region(live: ())

    /// The live region, built in place (inlinable, as ``Clock/defaultValue``: no lazy
    /// global's check on a never-injected read).
    @inlinable
    public static var defaultValue: Region {
        Region(live: ())
    }

    /// The calendar, carrying ``locale`` and ``timeZone``: `Calendar.autoupdatingCurrent`
    /// for the live region.
    public var calendar: Calendar {
        fixedCalendar ?? .autoupdatingCurrent
    }

    /// The locale: `Locale.autoupdatingCurrent` for the live region.
    public var locale: Locale {
        guard let fixedCalendar else { return .autoupdatingCurrent }
        return fixedCalendar.locale ?? Locale(identifier: "en_US_POSIX")
    }

    /// The time zone: `TimeZone.autoupdatingCurrent` for the live region.
    public var timeZone: TimeZone {
        fixedCalendar?.timeZone ?? .autoupdatingCurrent
    }

    /// A `DateFormatter` set to this region's locale, time zone and calendar: where code
    /// made a `DateFormatter()` and relied on its defaults.
    ///
    /// ```swift
    /// let formatter = Region.current.dateFormatter(dateStyle: .medium, timeStyle: .none)
    /// ```
    public func dateFormatter(
        dateStyle: DateFormatter.Style = .none, timeStyle: DateFormatter.Style = .none
    ) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.timeZone = timeZone
        formatter.calendar = calendar
        formatter.dateStyle = dateStyle
        formatter.timeStyle = timeStyle
        return formatter
    }

    /// A `Date.FormatStyle` in this region: where code called `date.formatted(date:time:)`,
    /// which reads the process's locale, calendar and time zone.
    ///
    /// ```swift
    /// date.formatted(Region.current.formatStyle(date: .numeric, time: .omitted))
    /// ```
    public func formatStyle(
        date: Date.FormatStyle.DateStyle = .numeric, time: Date.FormatStyle.TimeStyle = .shortened
    ) -> Date.FormatStyle {
        Date.FormatStyle(date: date, time: time, locale: locale, calendar: calendar, timeZone: timeZone)
    }

    /// `Region.live`, or the locale, time zone and calendar of a fixed region.
    public var description: String {
        guard let fixedCalendar else { return "Region.live" }
        return "Region(\(locale.identifier), \(fixedCalendar.timeZone.identifier), \(fixedCalendar.identifier))"
    }
}
