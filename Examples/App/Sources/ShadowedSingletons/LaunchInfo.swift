// SPDX-License-Identifier: Apache-2.0

import Foundation

// Legacy statics, each set once per process from a system singleton by whichever code reaches
// it first. Each static here is reached by one test only (the statics are per process).

/// What a legacy module keeps in statics: the launch time, a calendar, an id, a setting.
public enum LaunchInfo {
    static let launchedAt = Date()
    static let calendar = Calendar.current
    static let timeZone = Settings().timeZone  // read a call below the initialiser
    static let sessionID = UUID()
    static let home = ProcessInfo.processInfo.environment["HOME"]
    static let launchedAtBeforeTheTests = Date()
    static let readWithNothingInjected = Date()

    /// `launchedAt`, set where it is first asked for.
    public static var launchTime: Date { launchedAt }
    /// `calendar`'s time zone.
    public static var calendarZone: TimeZone { calendar.timeZone }
    /// `timeZone`.
    public static var settingsZone: TimeZone { timeZone }
    /// `sessionID`.
    public static var session: UUID { sessionID }
    /// `home`.
    public static var homeDirectory: String? { home }
    /// `launchedAtBeforeTheTests`.
    public static var launchTimeReachedBeforeTheTests: Date { launchedAtBeforeTheTests }
    /// `readWithNothingInjected`.
    public static var launchTimeWithNothingInjected: Date { readWithNothingInjected }
}

private struct Settings {
    let timeZone = TimeZone.current
}
