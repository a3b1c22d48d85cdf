package import Foundation
package import GTFS

/// A feed's time zone as GTFS times need it: each service date's "noon minus 12 h", from which the times
/// of that service day count, and the zone's UTC offsets over a span.
package struct FeedClock {
    let timeZone: TimeZone
    private let calendar: Calendar

    package init(timeZone: TimeZone) {
        self.timeZone = timeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// The Unix time of "noon minus 12 h" on `date` in the zone: local midnight, except on the days the
    /// clocks change, when it is an hour off midnight (the reference defines times this way so that a time
    /// is always a plain number of seconds from it).
    package func dayStart(_ date: GTFSDate) -> Int64 {
        let noon = calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day, hour: 12))
        // A date the calendar cannot place (none of 1…9999 in practice) falls back to UTC noon.
        let seconds = noon?.timeIntervalSince1970 ?? Double(date.daysSince1970 * 86_400 + 43_200)
        return Int64(seconds.rounded()) - 43_200
    }

    /// The local calendar date of an instant (seconds since 1970) in the zone.
    package func date(containing instant: Int64) -> GTFSDate? {
        let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(instant)))
        guard let year = parts.year, let month = parts.month, let day = parts.day else { return nil }
        return GTFSDate(year: year, month: month, day: day)
    }

    /// The zone's offsets from UTC from `start` to `end` (Unix times): the offset at `start`, then one
    /// entry per transition before `end`.
    package func offsets(from start: Int64, to end: Int64) -> [(since: Int64, utcOffset: Int)] {
        var result = [(since: start, utcOffset: timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(start))))]
        var instant = Date(timeIntervalSince1970: Double(start))
        // Two transitions a year at most in practice; the bound only keeps a strange zone from looping.
        while result.count < 10_000, let next = timeZone.nextDaylightSavingTimeTransition(after: instant),
            next.timeIntervalSince1970 < Double(end), next > instant
        {
            result.append((Int64(next.timeIntervalSince1970.rounded()), timeZone.secondsFromGMT(for: next)))
            instant = next
        }
        return result
    }

    /// The query of a feed's time zone, the same rule in both stores: the `agency_timezone` of its first
    /// agency by `agency_id` (the reference requires every agency of a feed to share one; a feed of one
    /// agency may leave its id empty). Its one argument is the feed.
    /// - Parameter table: the `agency` table, qualified where the store needs it.
    package static func zoneSQL(_ dialect: SQLDialect, table: String = "agency") -> String {
        """
        SELECT agency_timezone FROM \(table) WHERE feed = \(dialect.placeholder(1)) AND agency_timezone IS NOT NULL
        ORDER BY agency_id NULLS FIRST LIMIT 1
        """
    }
}
