// SPDX-License-Identifier: Apache-2.0

import Foundation

// Why: one legacy line per name the one-file port takes over, each as 2015-era code writes it,
// so that a test can show each reads what the test injected.

/// `Date()`.
public func currentDate() -> Date { Date() }

/// `Date.now` and `timeIntervalSinceNow`.
public func secondsFromNow(until date: Date) -> TimeInterval {
    date.timeIntervalSinceNow + Date.now.timeIntervalSince(Date())
}

/// `UUID()`.
public func newIdentifier() -> UUID { UUID() }

/// `Locale.current`, `TimeZone.current`, `Calendar.current`.
public func regionIdentifiers() -> [String] {
    [Locale.current.identifier, TimeZone.current.identifier, "\(Calendar.current.identifier)"]
}

/// `DateFormatter()`.
public func formatted(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    return formatter.string(from: date)
}

/// `NumberFormatter()`.
public func formattedNumber(_ value: Double) -> String {
    let formatter = NumberFormatter()
    formatter.numberStyle = .decimal
    return formatter.string(from: NSNumber(value: value)) ?? ""
}

/// `ProcessInfo.processInfo.environment`.
public func environmentValue(_ name: String) -> String? { ProcessInfo.processInfo.environment[name] }

/// `print` and `NSLog` with arguments.
public func logBoth(_ value: String) {
    print("printed", value)
    NSLog("logged %@ %d", value, 42)
}

/// `data.write(to:)` and `FileManager.default` (`Data(contentsOf:)` needs its edit: the guide's
/// table of edges).
public func roundTrip(_ data: Data, named name: String) throws -> Data {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(name)
    try data.write(to: url)
    return try FileManager.default.contents(of: url)
}

/// `NotificationCenter.default.post`.
public func announce(_ name: String) {
    NotificationCenter.default.post(name: Notification.Name(name), object: nil)
}

/// `group.notify(queue: .global())` after work on a module queue, reading `UserDefaults.standard`.
public func notifyOnGlobal(_ done: @escaping @Sendable (String?) -> Void) {
    let group = DispatchGroup()
    let queue = DispatchQueue(label: "shadowed.group")
    queue.async(group: group) { UserDefaults.standard.set("written", forKey: "group") }
    group.notify(queue: .global()) { done(UserDefaults.standard.string(forKey: "group")) }
}

/// `group.notify(queue: .main)`, and `OperationQueue.main.addOperation` from it.
public func notifyOnMain(_ done: @escaping @Sendable (String?) -> Void) {
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) { UserDefaults.standard.set("main", forKey: "main") }
    group.notify(queue: .main) {
        OperationQueue.main.addOperation { done(UserDefaults.standard.string(forKey: "main")) }
    }
}

/// A `Thread` that sleeps with `Thread.sleep(forTimeInterval:)`, then stamps the time.
public func stampAfterSleeping(_ seconds: TimeInterval, _ done: @escaping @Sendable (Date) -> Void) {
    Thread {
        Thread.sleep(forTimeInterval: seconds)
        done(Date())
    }.start()
}

/// `DispatchQueue.main.asyncAfter` and `Timer.scheduledTimer`.
public func fireLater(_ done: @escaping @Sendable (String) -> Void) {
    DispatchQueue.main.asyncAfter(deadline: .now() + 2) { done("asyncAfter") }
    Timer.scheduledTimer(withTimeInterval: 3, repeats: false) { _ in done("timer") }
}

/// `Timer(fire:interval:repeats:block:)` added to `RunLoop.main`; returns what stops it.
public func startHeartbeat(every period: TimeInterval, _ beat: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
    let heartbeat = Timer(fire: Date() + period, interval: period, repeats: true) { _ in beat() }
    RunLoop.main.add(heartbeat, forMode: .common)
    return { heartbeat.invalidate() }
}

/// `URLSession.shared.dataTask`.
public func fetch(_ url: URL, _ done: @escaping @Sendable (Int?) -> Void) {
    URLSession.shared.dataTask(with: url) { data, _, _ in done(data?.count) }.resume()
}

/// `UserDefaults.standard` read on `DispatchQueue.global()`.
public func readFlagInBackground(_ done: @escaping @Sendable (Bool) -> Void) {
    DispatchQueue.global().async { done(UserDefaults.standard.bool(forKey: "flag")) }
}
