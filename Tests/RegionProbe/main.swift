// SPDX-License-Identifier: Apache-2.0

import Ambient
import Foundation

// Formats one date with the ambient region, injected and live, and prints both with the
// process's own settings: RegionAcrossMachinesTests runs it under different TZ and LANG.

func receiptLine(_ date: Date) -> String {
    let formatter = Region.current.dateFormatter(dateStyle: .full, timeStyle: .short)
    return date.formatted(Region.current.formatStyle(date: .abbreviated, time: .shortened)) + " | "
        + formatter.string(from: date) + " | " + String(Region.current.calendar.component(.hour, from: date))
}

let date = Date(timeIntervalSince1970: 1_700_000_000)
let injected = withInjected(
    Region.fixed(locale: Locale(identifier: "en_US"), timeZone: TimeZone(identifier: "America/New_York")!)
) {
    receiptLine(date)
}
print("injected: " + injected)
print("live: " + receiptLine(date))
print("process: " + TimeZone.current.identifier + " " + Locale.current.identifier)
