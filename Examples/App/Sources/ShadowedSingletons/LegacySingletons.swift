// SPDX-License-Identifier: Apache-2.0

import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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

/// `data.write(to:)`, `Data(contentsOf:)` and `FileManager.default`.
public func roundTrip(_ data: Data, named name: String) throws -> Data {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(name)
    try data.write(to: url)
    return try Data(contentsOf: url)
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
    _ = Timer.scheduledTimer(withTimeInterval: 3, repeats: false) { _ in done("timer") }
}

/// `Timer(fire:interval:repeats:block:)` added to `RunLoop.main`; returns what stops it.
public func startHeartbeat(every period: TimeInterval, _ beat: @escaping @Sendable () -> Void) -> () -> Void {
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

/// `print` with a separator and a terminator, and an empty `print()`.
public func printReceipt(_ lines: [(String, Double)]) {
    for (item, price) in lines {
        print(item, price, separator: " ... ", terminator: ";\n")
    }
    print()
    print("total:", lines.reduce(0) { $0 + $1.1 })
}

/// `FileManager.default.attributesOfItem(atPath:)` read as its dictionary.
public func fileSize(atPath path: String) throws -> UInt64 {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return attributes[.size] as! UInt64
}

/// A queue targeting an optional queue of the module's, and a `sync` read from it.
public final class Counter: @unchecked Sendable {
    // @unchecked: `count` is only touched on `queue`.
    private let queue: DispatchQueue
    private var count = 0

    init(label: String, target: DispatchQueue?) {
        queue = DispatchQueue(label: label, target: target)
    }

    /// A counter on a queue of its own.
    public convenience init(label: String) {
        self.init(label: label, target: nil)
    }

    /// A counter whose queue targets `other`'s.
    public convenience init(label: String, sharing other: Counter) {
        self.init(label: label, target: other.queue)
    }

    /// Adds one, on the queue.
    public func increment() { queue.async { self.count += 1 } }
    /// The count, read with `sync`.
    public var value: Int { queue.sync { count } }
}

/// The region's values as the module prints them.
public func regionDescriptions() -> [String] {
    let formatter = DateFormatter()
    return [
        "\(Locale.current)", "\(Locale.autoupdatingCurrent)", "\(TimeZone.current)",
        "\(TimeZone.autoupdatingCurrent)", "\(Calendar.current)", "\(Calendar.autoupdatingCurrent)",
        "\(formatter.locale!)", "\(formatter.timeZone!)", "\(NumberFormatter().locale!)",
    ]
}

/// An object made once, at start-up, keeping what the accessors gave it in properties, as
/// 2015-era code does.
public final class DraftStore: @unchecked Sendable {
    // @unchecked: the properties are set once, in `init`.
    /// The one made at start-up.
    public static let shared = DraftStore()

    private let defaults = UserDefaults.standard
    private let files = FileManager.default
    private let center = NotificationCenter.default
    private let environment = ProcessInfo.processInfo
    private let main = DispatchQueue.main
    private let formatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter
    }()
    private let utcFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm"
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter
    }()

    /// A store keeping what the accessors give now.
    public init() {}

    /// Writes the draft and announces it.
    public func saveDraft(_ text: String) {
        defaults.set(text, forKey: "draft")
        center.post(name: Notification.Name("draftSaved"), object: nil)
    }

    /// The saved draft.
    public var draft: String? { defaults.string(forKey: "draft") }

    /// Removes a log file.
    public func deleteLog(atPath path: String) throws { try files.removeItem(atPath: path) }

    /// The `MODE` environment variable.
    public var mode: String? { environment.environment["MODE"] }

    /// `date` in the kept formatter.
    public func stamp(_ date: Date) -> String { formatter.string(from: date) }

    /// `date` in the kept formatter whose time zone the module set.
    public func utcStamp(_ date: Date) -> String { utcFormatter.string(from: date) }

    /// `work` on the kept main queue.
    public func onMain(_ work: @escaping @Sendable () -> Void) { main.async(execute: work) }
}

/// A sweep on a `DispatchSource` timer, on a module queue, reading `Date()` at each tick.
public final class ExpiringCache: @unchecked Sendable {
    // @unchecked: `entries` is only touched on `queue`.
    private var entries: [String: Date] = [:]
    private let queue = DispatchQueue(label: "cache.entries")
    private var timer: DispatchSourceTimer?

    /// A cache whose sweep runs every `interval` seconds.
    public init(sweepEvery interval: Double) {
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer!.schedule(deadline: .now(), repeating: interval)
        timer!.setEventHandler { [unowned self] in
            let now = Date()
            self.entries = self.entries.filter { $0.value > now }
        }
        timer!.resume()
    }

    deinit { timer?.cancel() }

    /// Keeps `key` for `seconds`.
    public func insert(_ key: String, for seconds: TimeInterval) {
        queue.sync { entries[key] = Date().addingTimeInterval(seconds) }
    }

    /// The keys not yet swept.
    public var keys: [String] { queue.sync { entries.keys.sorted() } }
}

/// `item.notify(queue: .global())` after a work item on a module queue.
public func notifyAfterItem(_ done: @escaping @Sendable (String?) -> Void) {
    let item = DispatchWorkItem { UserDefaults.standard.set("item", forKey: "item") }
    item.notify(queue: .global()) { done(UserDefaults.standard.string(forKey: "item")) }
    DispatchQueue(label: "shadowed.item").async(execute: item)
}

/// An observer on `NotificationCenter.default` delivering on `.main`.
public func observeOnMain(_ name: String, _ seen: @escaping @Sendable (String?) -> Void) -> NSObjectProtocol {
    NotificationCenter.default.addObserver(forName: Notification.Name(name), object: nil, queue: .main) { _ in
        seen(UserDefaults.standard.string(forKey: "observed"))
    }
}

/// `RunLoop.main.perform`.
public func performOnMainRunLoop(_ done: @escaping @Sendable (String?) -> Void) {
    RunLoop.main.perform { done(UserDefaults.standard.string(forKey: "performed")) }
}

/// Work on a Dispatch queue the caller hands in (a public API names Dispatch's type).
public func readFlag(on queue: Dispatch.DispatchQueue, _ done: @escaping @Sendable (Bool) -> Void) {
    queue.async { done(UserDefaults.standard.bool(forKey: "flag")) }
    queue.asyncAfter(deadline: .now() + 5) { done(UserDefaults.standard.bool(forKey: "later")) }
}

/// `group.notify(qos:flags:queue: .global())`, the notification's flags spelled out.
public func notifyWithFlags(_ done: @escaping @Sendable (String?) -> Void) {
    let group = DispatchGroup()
    DispatchQueue(label: "shadowed.flags").async(group: group) { UserDefaults.standard.set("flags", forKey: "flags") }
    group.notify(qos: .utility, flags: [], queue: .global()) { done(UserDefaults.standard.string(forKey: "flags")) }
}

/// A work item on `DispatchQueue.main` and a block operation on `OperationQueue.main`.
public func refreshOnMain(_ done: @escaping @Sendable (String) -> Void) {
    let item = DispatchWorkItem { done("item") }
    DispatchQueue.main.async(execute: item)
    OperationQueue.main.addOperation(BlockOperation { done("operation") })
}

/// `UserDefaults.standard` read in a callback on a thread the module does not own (as a
/// transport's or a C library's callback would be: Foundation's own `Thread`, not the port's).
public func readFlagOnAForeignThread(_ done: @escaping @Sendable (Bool) -> Void) {
    Foundation.Thread {
        done(UserDefaults.standard.bool(forKey: "flag"))
    }.start()
}
