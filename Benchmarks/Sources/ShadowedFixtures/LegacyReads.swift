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
