// SPDX-License-Identifier: Apache-2.0

import Foundation

// Why: reads as legacy code writes them, in a module adopting Ambient by its one file: the
// "port:" rows' shadowed spellings, beside ExplicitReads.swift's.

/// `UserDefaults.standard.integer(forKey:)` through the one-file port.
@inline(never)
public func shadowedDefaultsRead() -> Int { UserDefaults.standard.integer(forKey: "count") }

/// `Date()` through the one-file port.
@inline(never)
public func shadowedDate() -> Date { Date() }

/// `Locale.current` through the one-file port.
@inline(never)
public func shadowedLocale() -> Locale { Locale.current }

/// A module queue, as legacy code makes it: `DispatchQueue(label:)` through the one-file port.
private let legacyQueue = DispatchQueue(label: "bench.shadowed")

/// `queue.sync {}` on a module queue through the one-file port.
@inline(never)
public func shadowedSync() { legacyQueue.sync {} }

/// `queue.async {}` on a module queue through the one-file port.
@inline(never)
public func shadowedAsync() { legacyQueue.async {} }

/// `shadowedAsync()` `count` times onto the module queue held suspended, then the queue
/// resumed and waited for: the submissions' cost, and the empty blocks' run in one batch,
/// with no wake-up of the queue's thread for each.
@inline(never)
public func shadowedAsyncBatch(_ count: Int) {
    legacyQueue.queue.suspend()
    for _ in 0..<count { shadowedAsync() }
    legacyQueue.queue.resume()
    legacyQueue.sync {}
}
