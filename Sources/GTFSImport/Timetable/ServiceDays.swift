import Foundation
import GRDB
import GTFS

/// Fills `service_days` (every date each service runs) and, through ``FeedClock``, `feed_days` and
/// `feed_utc_offsets` for one feed, from `calendar`, `calendar_dates` and the agency's time zone.
package enum ServiceDays {
    /// The most days the service days of a feed span (``TimetablePart/longestServiceSpan``).
    static let longestSpan = TimetablePart.longestServiceSpan

    /// Computes and writes the feed's service days, service dates and offsets.
    /// - Returns: warnings: a time zone that is missing or unknown (times are then placed in UTC), calendars
    ///   cut at ``longestSpan``.
    static func build(_ db: Database, feed: Int64) throws -> [GTFSWarning] {
        var warnings: [GTFSWarning] = []
        let calendars = try Row.fetchAll(
            db,
            sql: """
                SELECT service_id, monday, tuesday, wednesday, thursday, friday, saturday, sunday, start_date, end_date
                FROM calendar WHERE feed = ?
                """, arguments: [feed])
        func day(_ value: Int?) -> Int? { value.flatMap { GTFSDate(integerValue: $0)?.daysSince1970 } }
        func day(_ row: Row, _ column: Int) -> Int? { day(row[column] as Int?) }
        // calendar_dates is large in a large feed: its first date comes from SQL, and its rows are applied
        // through a cursor below, never held.
        let firstException = day(try Int.fetchOne(db, sql: "SELECT min(date) FROM calendar_dates WHERE feed = ?", arguments: [feed]))
        guard let first = (calendars.compactMap { day($0, 8) } + [firstException].compactMap { $0 }).min() else { return [] }
        let last = first + longestSpan - 1

        // One bit per day of the span for each service: a few hundred bytes each, whatever the feed.
        let span = last - first + 1
        var days: [String: [UInt64]] = [:]
        let none = [UInt64](repeating: 0, count: (span + 63) / 64)
        func set(_ service: String, _ day: Int, _ on: Bool) {
            let offset = day - first
            guard offset >= 0, offset < span else { return }
            // In place: a copy taken out of the dictionary would be copied again on its first change.
            let bit: UInt64 = 1 << UInt64(offset % 64)
            if on { days[service, default: none][offset / 64] |= bit } else { days[service, default: none][offset / 64] &= ~bit }
        }
        var clipped: (service: String, end: Int)?
        for row in calendars {
            guard let service = row[0] as String?, let start = day(row, 8), let end = day(row, 9) else { continue }
            let weekdays: [Bool] = (1 ... 7).map { (row[$0] as Int?) == 1 }
            if end > last && clipped == nil { clipped = (service, (row[9] as Int?) ?? 0) }
            guard start <= min(end, last) else { continue }
            for day in start ... min(end, last) where weekdays[GTFSDate.weekday(daysSince1970: day) - 1] {
                set(service, day, true)
            }
        }
        let exceptions = try Row.fetchCursor(
            db, sql: "SELECT service_id, date, exception_type FROM calendar_dates WHERE feed = ?", arguments: [feed])
        while let row = try exceptions.next() {
            guard let service = row[0] as String?, let date = day(row, 1) else { continue }
            switch row[2] as Int? {
            case 1: set(service, date, true)
            case 2: set(service, date, false)
            default: break
            }
        }
        if let clipped, let lastDate = GTFSDate(daysSince1970: last) {
            warnings.append(
                GTFSError(
                    .invalidValue, file: GTFSFile.calendar.fileName, column: "end_date",
                    message: "service \(clipped.service) runs until \(clipped.end): service days are kept up to \(lastDate), "
                        + "\(longestSpan) days from the feed's first date"))
        }

        // Written in key order (date, then service), which SQLite appends fastest.
        let services = days.keys.sorted()
        let ordered = services.compactMap { days[$0] }
        let insert = try db.makeStatement(sql: "INSERT INTO service_days (feed, date, service_id) VALUES (?, ?, ?)")
        var dates: [GTFSDate] = []
        for offset in 0 ..< span {
            guard let date = GTFSDate(daysSince1970: first + offset) else { continue }
            var runs = false
            for (index, bits) in ordered.enumerated() where bits[offset / 64] & (1 << UInt64(offset % 64)) != 0 {
                try insert.execute(arguments: [feed, date.integerValue, services[index]])
                runs = true
            }
            if runs { dates.append(date) }
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
