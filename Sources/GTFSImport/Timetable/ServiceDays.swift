import Foundation
import GRDB
import GTFS

/// Fills `service_days` (every date each service runs) and, through ``FeedClock``, `feed_days` and
/// `feed_utc_offsets` for one feed, from `calendar`, `calendar_dates` and the agency's time zone.
package enum ServiceDays {
    /// The most days the service days of a feed span (``TimetablePart/longestServiceSpan``).
    static let longestSpan = TimetablePart.longestServiceSpan

    /// Computes and writes the feed's service days (`ServiceDates`), service dates and offsets.
    /// - Returns: warnings: a time zone that is missing or unknown (times are then placed in UTC), calendars
    ///   cut at ``longestSpan``.
    static func build(_ db: Database, feed: Int64) throws -> [GTFSWarning] {
        guard let calendar = try calendar(db, feed: feed) else { return [] }
        var warnings = [calendar.clippedWarning].compactMap { $0 }
        // Written in key order (date, then service), which SQLite appends fastest.
        let insert = try db.makeStatement(sql: "INSERT INTO service_days (feed, date, service_id) VALUES (?, ?, ?)")
        var dates: [GTFSDate] = []
        try calendar.forEachServiceDay { date, services in
            for service in services { try insert.execute(arguments: [feed, date.integerValue, service]) }
            dates.append(date)
        }

        let (timeZone, zoneWarning) = try zone(db, feed: feed)
        if let zoneWarning, !dates.isEmpty { warnings.append(zoneWarning) }
        let clock = FeedClock(timeZone: timeZone)
        let insertDay = try db.makeStatement(sql: "INSERT INTO feed_days (feed, date, day_start) VALUES (?, ?, ?)")
        var starts: [Int64] = []
        for date in dates {
            let start = clock.dayStart(date)
            starts.append(start)
            try insertDay.execute(arguments: [feed, date.integerValue, start])
        }
        if let earliest = starts.min(), let latest = starts.max() {
            // Events of a service day may come days after its start (times past 24:00, frequency runs).
            let insertOffset = try db.makeStatement(sql: "INSERT INTO feed_utc_offsets (feed, since, utc_offset) VALUES (?, ?, ?)")
            for entry in clock.offsets(from: earliest - 86_400, to: latest + 8 * 86_400) {
                try insertOffset.execute(arguments: [feed, entry.since, entry.utcOffset])
            }
        }
        return warnings
    }

    /// The feed's calendar: its calendars, then its exceptions through a cursor (`calendar_dates` is large
    /// in a large feed, and is never held); `nil` for a feed without either.
    private static func calendar(_ db: Database, feed: Int64) throws -> ServiceDates? {
        let calendars = try Row.fetchAll(
            db,
            sql: """
                SELECT service_id, monday, tuesday, wednesday, thursday, friday, saturday, sunday, start_date, end_date
                FROM calendar WHERE feed = ? ORDER BY service_id
                """, arguments: [feed])
        func date(_ value: Int?) -> GTFSDate? { value.flatMap { GTFSDate(integerValue: $0) } }
        let firstException = date(try Int.fetchOne(db, sql: "SELECT min(date) FROM calendar_dates WHERE feed = ?", arguments: [feed]))
        guard let first = (calendars.compactMap { date($0[8]) } + [firstException].compactMap { $0 }).min() else { return nil }
        var calendar = ServiceDates(first: first)
        for row in calendars {
            guard let service = row[0] as String?, let start = date(row[8]), let end = date(row[9]) else { continue }
            calendar.add(service: service, start: start, end: end, weekdays: (1 ... 7).map { (row[$0] as Int?) == 1 })
        }
        let exceptions = try Row.fetchCursor(
            db, sql: "SELECT service_id, date, exception_type FROM calendar_dates WHERE feed = ?", arguments: [feed])
        while let row = try exceptions.next() {
            guard let service = row[0] as String?, let day = date(row[1]), let type = row[2] as Int? else { continue }
            calendar.apply(service: service, date: day, exceptionType: type)
        }
        return calendar
    }

    /// The name of the feed's time zone: its first agency's `agency_timezone`; `nil` when no agency gives one.
    static func zoneName(_ db: Database, feed: Int64) throws -> String? {
        try String.fetchOne(db, sql: FeedClock.zoneSQL(.sqlite), arguments: [feed])
    }

    /// The feed's time zone: its first agency's `agency_timezone` (the reference requires every agency of a
    /// feed to share one), or UTC with a warning when there is none or it is unknown.
    private static func zone(_ db: Database, feed: Int64) throws -> (TimeZone, GTFSWarning?) {
        let utc = TimeZone(secondsFromGMT: 0) ?? TimeZone.current
        guard let name = try zoneName(db, feed: feed) else {
            return (utc, GTFSError(.missingValue, file: GTFSFile.agency.fileName, column: "agency_timezone", message: "is missing: times are placed in UTC"))
        }
        guard let zone = TimeZone(identifier: name) else {
            return (
                utc,
                GTFSError(
                    .invalidValue, file: GTFSFile.agency.fileName, column: "agency_timezone", text: name,
                    message: "is not a known time zone: times are placed in UTC")
            )
        }
        return (zone, nil)
    }
}
