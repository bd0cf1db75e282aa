// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation

// Why: the same reads as LegacyReads.swift, spelled as the explicit port writes them, in the
// same module: the "port:" rows' floors.

/// `Defaults.current.integer(forKey:)`.
@inline(never)
public func explicitDefaultsRead() -> Int { Defaults.current.integer(forKey: "count") }

/// `Clock.current.now`.
@inline(never)
public func explicitDate() -> Date { Clock.current.now }

/// `Region.current.locale`.
@inline(never)
public func explicitLocale() -> Locale { Region.current.locale }
