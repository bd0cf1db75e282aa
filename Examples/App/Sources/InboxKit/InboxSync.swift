// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation

/// The outcome of a sync: the number of messages indexed, or why it failed.
public enum SyncError: Error, Equatable {
    /// The server kept failing after every retry.
    case unavailable
    /// Nothing came back before the watchdog's deadline.
    case timedOut
}

/// A 2015-style mail sync from a Swift 5 module: two module queues (a serial one, and a
/// concurrent one with barrier writes), a global fetch retried with `asyncAfter` back-off,
/// a `DispatchGroup` with `notify`, an `OperationQueue` of `BlockOperation`s with
/// dependencies and a completion block, main-queue completions, a watchdog `Thread` that
/// polls with a blocking sleep, a heartbeat timer on the main queue, and an analytics
/// singleton that flushes later. Ported by changing where each queue, thread and timer is
/// declared, and the singletons read (each `was:` is the line before); every call site
/// that submits work is as it was.
public final class InboxSync {
    /// The process's sync.
    public static let shared = InboxSync()

    /// How long the watchdog lets a sync run before it fails it.
    public static let deadline: TimeInterval = 60
    /// How often the watchdog looks.
    public static let watchdogPoll: TimeInterval = 15
    /// How often the heartbeat logs while a sync runs.
    public static let heartbeatPeriod: TimeInterval = 2.5

    // was: private let queue = DispatchQueue(label: "inbox.sync")
    private let queue = CarryingQueue(label: "inbox.sync")
    // was: private let store = DispatchQueue(label: "inbox.store", attributes: .concurrent)
    private let store = CarryingQueue(label: "inbox.store", attributes: .concurrent)
    // was: private let operations = OperationQueue()
    private let operations: CarryingOperationQueue = {
        let operations = CarryingOperationQueue()
        operations.maxConcurrentOperationCount = 2
        return operations
    }()
    private let lock = NSLock()
    private var messages: [String: [String]] = [:]

    /// A sync with no messages.
    public init() {}

    /// The messages stored for `folder` (read on the store queue).
    public func stored(_ folder: String) -> [String] {
        store.sync { lock.withLock { messages[folder] ?? [] } }
    }

    /// Syncs every folder: fetches the account's state (retried with back-off), then each
    /// folder in parallel, stores them, parses and indexes them on the operation queue, and
    /// calls `completion` on the main queue with the number indexed. A watchdog fails the
    /// sync after `deadline` seconds, and a heartbeat logs every `heartbeatPeriod` seconds
    /// while it runs.
    public func sync(folders: [String], completion: @escaping @Sendable (Result<Int, SyncError>) -> Void) {
        let finish = Once(completion)
        // was: let heartbeat = Timer(fire: Date() + period, interval: period, repeats: true) { _ in … }
        //      RunLoop.main.add(heartbeat, forMode: .common)
        let heartbeat = MainQueue.current.scheduledTimer(withTimeInterval: Self.heartbeatPeriod, repeats: true) { _ in
            Logger.current.info("heartbeat")
        }
        // was: let watchdog = Thread { … }
        let watchdog = CarryingThread { thread in
            var waited: TimeInterval = 0
            while !thread.isCancelled && waited < Self.deadline {
                // was: Thread.sleep(forTimeInterval: InboxSync.watchdogPoll)
                do { try Clock.current.sleep(for: .seconds(Self.watchdogPoll)) } catch { return }
                waited += Self.watchdogPoll
            }
            guard !thread.isCancelled else { return }
            // was: DispatchQueue.main.async { … }
            MainQueue.current.async {
                heartbeat.invalidate()
                finish.call(.failure(.timedOut))
            }
        }
        watchdog.start()
        let done: @Sendable (Result<Int, SyncError>) -> Void = { result in
            watchdog.cancel()
            // was: DispatchQueue.main.async { … }
            MainQueue.current.async {
                heartbeat.invalidate()
                finish.call(result)
            }
        }
        queue.async {
            // was: NSLog("sync: starting from token %@", token)
            let token = Defaults.current.string(forKey: "inbox.token") ?? "none"
            Logger.current.info("sync: starting from token \(token)")
            self.fetchAccount(attempt: 1) { account in
                guard let account else { return done(.failure(.unavailable)) }
                self.fetch(folders, of: account, then: done)
            }
        }
    }

    /// The account's state, from a global queue, retried after 1, 2 and 4 seconds.
    private func fetchAccount(attempt: Int, completion: @escaping @Sendable (String?) -> Void) {
        // was: DispatchQueue.global(qos: .userInitiated).async { … }
        CarryingQueue.global(qos: .userInitiated).async {
            Mailbox.current.account { answer in
                switch answer {
                case .success(let account):
                    completion(account)
                case .failure where attempt < 4:
                    let backOff = TimeInterval(1 << (attempt - 1))
                    Logger.current.info("sync: attempt \(attempt) failed, retrying in \(Int(backOff)) s")
                    self.queue.asyncAfter(deadline: .now() + backOff) {
                        self.fetchAccount(attempt: attempt + 1, completion: completion)
                    }
                case .failure:
                    completion(nil)
                }
            }
        }
    }

    /// Every folder fetched in parallel and stored with barrier writes; once all are in
    /// (`group.notify`), parsed and indexed as dependent operations.
    private func fetch(
        _ folders: [String], of account: String, then done: @escaping @Sendable (Result<Int, SyncError>) -> Void
    ) {
        let group = DispatchGroup()
        for folder in folders {
            // was: DispatchQueue.global(qos: .utility).async(group: group) { … }
            CarryingQueue.global(qos: .utility).async(group: group) {
                let fetched = Mailbox.current.messages(account, folder)
                group.enter()
                self.store.async(flags: .barrier) {
                    self.lock.withLock { self.messages[folder] = fetched }
                    Logger.current.info("sync: stored \(fetched.count) in \(folder)")
                    group.leave()
                }
            }
        }
        group.notify(queue: queue) {
            let parse = BlockOperation {
                Logger.current.info("sync: parsed \(folders.count) folders")
            }
            let index = BlockOperation {
                let count = folders.reduce(0) { $0 + self.stored($1).count }
                Defaults.current.set(count, forKey: "inbox.indexed")
                Defaults.current.set(account + ".next", forKey: "inbox.token")
            }
            index.addDependency(parse)
            index.completionBlock = {
                Analytics.shared.track("sync.indexed")
                done(.success(folders.reduce(0) { $0 + self.stored($1).count }))
            }
            self.operations.addOperations([index, parse], waitUntilFinished: false)
        }
    }
}

/// An analytics singleton that sends each event 30 seconds after it is tracked, batched
/// with the network's next wake-up as such SDKs do.
public final class Analytics {
    /// The process's analytics.
    public static let shared = Analytics()

    /// Records `event` and schedules its flush.
    public func track(_ event: String) {
        // was: DispatchQueue.global().asyncAfter(deadline: .now() + 30) { … }
        BackgroundQueue.current.asyncAfter(deadline: .now() + 30) {
            // was: NSLog("analytics: flushed %@", event)
            Logger.current.info("analytics: flushed \(event)")
        }
    }
}

/// Calls its completion once, whichever path gets there first (the watchdog or the sync).
final class Once: @unchecked Sendable {
    // @unchecked: `completion` is only touched with `lock` held.
    private let lock = NSLock()
    private var completion: ((Result<Int, SyncError>) -> Void)?

    init(_ completion: @escaping @Sendable (Result<Int, SyncError>) -> Void) {
        self.completion = completion
    }

    func call(_ result: Result<Int, SyncError>) {
        let completion = lock.withLock { () -> ((Result<Int, SyncError>) -> Void)? in
            defer { self.completion = nil }
            return self.completion
        }
        completion?(result)
    }
}
