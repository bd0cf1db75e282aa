// SPDX-License-Identifier: Apache-2.0

import AmbientCore
import AmbientProviders
import Foundation
import Testing

@Suite("Region")
struct RegionTests {
    let date = Date(timeIntervalSince1970: 1_700_000_000)

    /// Legacy code, ported by one word: `Calendar.current` → `Region.current.calendar`.
    func dayOfWeek(_ date: Date) -> Int {
        Region.current.calendar.component(.weekday, from: date)
    }

    @Test func aFixedRegionCarriesItsLocaleTimeZoneAndCalendar() {
        let auckland = Region.fixed(
            locale: Locale(identifier: "de_DE"), timeZone: TimeZone(identifier: "Pacific/Auckland")!)
        #expect(auckland.locale.identifier == "de_DE")
        #expect(auckland.timeZone.identifier == "Pacific/Auckland")
        #expect(auckland.calendar.timeZone.identifier == "Pacific/Auckland")
        #expect(auckland.calendar.locale?.identifier == "de_DE")
        #expect(auckland != .live)
        #expect(auckland.description == "Region(de_DE, Pacific/Auckland, gregorian)")
        // 22:13 on a Tuesday in UTC is Wednesday morning in Auckland.
        #expect(withInjected(Region.posixUTC) { dayOfWeek(date) } == 3)
        #expect(withInjected(auckland) { dayOfWeek(date) } == 4)
    }

    @Test func aCalendarCarriesTheRegion() {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "Asia/Tokyo")!
        let region = Region(calendar: calendar)
        // A new calendar has a locale on Linux (the current one) and none on Darwin, where
        // the region uses en_US_POSIX.
        #expect(region.locale.identifier == (calendar.locale ?? Locale(identifier: "en_US_POSIX")).identifier)
        #expect(region.calendar.identifier == .iso8601)
        #expect(region.timeZone.identifier == "Asia/Tokyo")
    }

    @Test func formattersUseTheRegion() {
        withInjected(Region.fixed(locale: Locale(identifier: "en_US"), timeZone: .gmt)) {
            let formatter = Region.current.dateFormatter(dateStyle: .medium)
            #expect(formatter.string(from: date) == "Nov 14, 2023")
            #expect(formatter.timeZone == .gmt)
            let style = Region.current.formatStyle(date: .numeric, time: .omitted)
            #expect(date.formatted(style) == "11/14/2023")
        }
    }

    @Test func theLiveRegionIsTheProcesss() {
        #expect(Region.current == .live)
        #expect(Region.current.timeZone.identifier == TimeZone.current.identifier)
        #expect(Region.current.locale.identifier == Locale.current.identifier)
        #expect(Region.current.calendar.identifier == Calendar.current.identifier)
        #expect(Region.live.description == "Region.live")
    }

    @Test func parallelScopesEachSeeTheirOwnRegion() async {
        let zones = ["Pacific/Auckland", "Europe/Berlin", "America/New_York", "Asia/Kolkata"]
        await withTaskGroup(of: Bool.self) { group in
            for index in 0..<200 {
                let zone = zones[index % zones.count]
                group.addTask {
                    await withInjected(
                        Region.fixed(locale: Locale(identifier: "en_US"), timeZone: TimeZone(identifier: zone)!)
                    ) {
                        await Task.yield()
                        return Region.current.timeZone.identifier == zone
                    }
                }
            }
            for await seen in group { #expect(seen) }
        }
    }
}
