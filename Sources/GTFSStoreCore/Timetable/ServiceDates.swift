package import GTFS

/// The days each service of a feed runs, from `calendar.txt` and `calendar_dates.txt`: the rule both
/// stores derive `service_days` with. The span starts at the feed's first date (of a calendar or an
/// exception) and lasts ``TimetablePart/longestServiceSpan`` days; a calendar running past it is cut, with
/// a warning. Each service is one bit per day of the span, a few hundred bytes whatever the feed, so the
/// exceptions can be applied as they are read.
package struct ServiceDates {
    /// The span's first day, in days since 1970.
    package let first: Int
    /// The days the span covers.
    package let span: Int
    /// By the id's UTF-8 bytes: a `String` key would take `é` and `e` + U+0301 for one service, where
    /// both stores' tables (and GTFS) tell them apart.
    private var days: [[UInt8]: [UInt64]] = [:]
    private let none: [UInt64]
    /// The first calendar cut at the span's end: its service and `end_date`.
    private var clipped: (service: String, end: GTFSDate)?

    /// The calendar of a feed whose first date (of a calendar's start or an exception) is `first`.
    package init(first: GTFSDate) {
        self.first = first.daysSince1970
        span = TimetablePart.longestServiceSpan
        none = [UInt64](repeating: 0, count: (span + 63) / 64)
    }

    /// Adds a row of `calendar.txt`: the service runs on `weekdays` (Monday first) from `start` to `end`.
    package mutating func add(service: String, start: GTFSDate, end: GTFSDate, weekdays: [Bool]) {
        let last = first + span - 1
        let (from, to) = (start.daysSince1970, end.daysSince1970)
        if to > last && clipped == nil { clipped = (service, end) }
        guard from <= min(to, last), weekdays.count == 7 else { return }
        for day in from ... min(to, last) where weekdays[GTFSDate.weekday(daysSince1970: day) - 1] {
            set(service, day, true)
        }
    }

    /// Applies a row of `calendar_dates.txt`: `exceptionType` 1 adds the date, 2 removes it.
    package mutating func apply(service: String, date: GTFSDate, exceptionType: Int) {
        switch exceptionType {
        case 1: set(service, date.daysSince1970, true)
        case 2: set(service, date.daysSince1970, false)
        default: break
        }
    }

    private mutating func set(_ service: String, _ day: Int, _ on: Bool) {
        let offset = day - first
        guard offset >= 0, offset < span else { return }
        // In place: a copy taken out of the dictionary would be copied again on its first change.
        let bit: UInt64 = 1 << UInt64(offset % 64)
        let key = Array(service.utf8)
        if on { days[key, default: none][offset / 64] |= bit } else { days[key, default: none][offset / 64] &= ~bit }
    }

    /// Calls `body` with each date on which a service runs and the services that run on it (sorted), in
    /// date order: the rows of `service_days` in key order (by bytes, as both stores order text keys).
    package func forEachServiceDay(_ body: (GTFSDate, [String]) throws -> Void) rethrows {
        let keys = days.keys.sorted { $0.lexicographicallyPrecedes($1) }
        let ordered = keys.compactMap { days[$0] }
        let services = keys.map { String(decoding: $0, as: UTF8.self) }
        for offset in 0 ..< span {
            guard let date = GTFSDate(daysSince1970: first + offset) else { continue }
            let running = ordered.indices.filter { ordered[$0][offset / 64] & (1 << UInt64(offset % 64)) != 0 }.map { services[$0] }
            if !running.isEmpty { try body(date, running) }
        }
    }

    /// The warning about a calendar cut at the span's end, if one was.
    package var clippedWarning: GTFSWarning? {
        guard let clipped, let lastDate = GTFSDate(daysSince1970: first + span - 1) else { return nil }
        return GTFSError(
            .invalidValue, file: GTFSFile.calendar.fileName, column: "end_date",
            message: "service \(clipped.service) runs until \(clipped.end): service days are kept up to \(lastDate), "
                + "\(span) days from the feed's first date")
    }
}
