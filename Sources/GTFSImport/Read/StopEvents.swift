import Foundation
import GRDB
import GTFS

/// The queries behind departure and arrival boards.
///
/// A stop time's instant is `day_start` of its service date plus its time (plus a run's shift for
/// frequency-based trips). For a window `[start, end)` the service dates to look at are those whose
/// `day_start` lies within the latest time at the stops before `start`, and up to `end`; for each such
/// date the stop times come from the `(stop_id, departure_time)` index in the window moved by that
/// date's `day_start`: a handful of index ranges instead of a scan of every service date.
enum StopEvents {
    enum Kind {
        case departures, arrivals

        /// The time column the window applies to.
        var timeColumn: String { self == .departures ? "departure_time" : "arrival_time" }
        /// The column saying the stop time allows it.
        var allowedColumn: String { self == .departures ? "pickup_type" : "drop_off_type" }
        /// A trip leaves every stop but its last, and arrives at every stop but its first: the stop times
        /// on the side this condition requires.
        var onward: String { self == .departures ? ">" : "<" }
    }

    /// Calls `body` with each event at `stopID` (and its platforms) in `[start, end)`, in time order (then
    /// trip, stop sequence and service date), as the two ordered queries give them: timetabled trips and
    /// runs of frequency-based trips, merged. Memory stays bounded however many events there are (SQLite
    /// sorts in its temporary files beyond its cache).
    /// - Parameter limit: the most events, or `nil` for all.
    static func forEach(
        _ db: Database, _ kind: Kind, stopID: String, start: Date, end: Date, feed name: String, limit: Int?,
        _ body: (StopEvent) throws -> Void
    ) throws {
        guard let feed = try GTFSStore.feedID(db, name: name), limit ?? 1 > 0 else { return }
        let stops = try String.fetchAll(
            db, sql: "SELECT stop_id FROM stops WHERE feed = ? AND (stop_id = ? OR parent_station = ?)", arguments: [feed, stopID, stopID])
        guard !stops.isEmpty else { return }
        let from = Int64(start.timeIntervalSince1970.rounded(.up))
        let to = Int64(end.timeIntervalSince1970.rounded(.up))
        guard from < to else { return }
        let places = stops.map { _ in "?" }.joined(separator: ", ")
        let time = kind.timeColumn
        // The instant is the select's second column for arrivals, its third for departures.
        let order = "ORDER BY \(kind == .departures ? 3 : 2), st.trip_id, st.stop_sequence, fd.date" + (limit.map { " LIMIT \($0)" } ?? "")

        // Timetabled trips: the latest time at these stops bounds how far back a service date can matter.
        var timetabled: RowCursor?
        if let latest = try Int64.fetchOne(
            db, sql: "SELECT max(\(time)) FROM stop_times WHERE stop_id IN (\(places)) AND feed = ?", arguments: StatementArguments(stops + [feed]))
        {
            let sql = select(
                kind, shift: "0", exact: "1", places: places,
                window: "AND st.\(time) >= ? - fd.day_start AND st.\(time) < ? - fd.day_start",
                filter: "AND NOT EXISTS (SELECT 1 FROM frequencies f WHERE f.trip_id = st.trip_id AND f.feed = st.feed)") + order
            timetabled = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(stops) + [from, to, feed, from - latest - 1, to])
        }
        // Runs of frequency-based trips.
        var runs: RowCursor?
        if let latest = try Int64.fetchOne(
            db,
            sql: """
                SELECT max(st.\(time) + fr.shift) FROM stop_times st
                JOIN frequency_runs fr ON fr.trip_id = st.trip_id AND fr.feed = st.feed
                WHERE st.stop_id IN (\(places)) AND st.feed = ?
                """, arguments: StatementArguments(stops + [feed]))
        {
            let sql = select(
                kind, shift: "fr.shift", exact: "fr.exact_times", places: places,
                window: """
                    JOIN frequency_runs fr ON fr.trip_id = st.trip_id AND fr.feed = st.feed
                        AND fd.day_start + st.\(time) + fr.shift >= ? AND fd.day_start + st.\(time) + fr.shift < ?
                    """, filter: "") + order
            runs = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(stops) + [from, to, feed, from - latest - 1, to])
        }
        try merge(kind, timetabled, runs, limit: limit, body)
    }

    /// Hands on the events of two cursors, each in board order, in board order, at most `limit`.
    private static func merge(_ kind: Kind, _ first: RowCursor?, _ second: RowCursor?, limit: Int?, _ body: (StopEvent) throws -> Void) throws {
        var left = try nextEvent(first)
        var right = try nextEvent(second)
        var remaining = limit ?? .max
        while remaining > 0 {
            let takesLeft: Bool
            switch (left, right) {
            case (nil, nil): return
            case (_?, nil): takesLeft = true
            case (nil, _?): takesLeft = false
            case (let a?, let b?): takesLeft = !precedes(kind, b, a)
            }
            if takesLeft, let a = left {
                try body(a)
                left = try nextEvent(first)
            } else if let b = right {
                try body(b)
                right = try nextEvent(second)
            }
            remaining -= 1
        }
    }

    /// The next event of `cursor`, past any row that makes none; `nil` at its end.
    private static func nextEvent(_ cursor: RowCursor?) throws -> StopEvent? {
        while let row = try cursor?.next() {
            if let event = event(row) { return event }
        }
        return nil
    }

    /// The order of a board: the instant, then the trip (bytewise, as SQLite orders it), the stop sequence
    /// and the service date.
    private static func precedes(_ kind: Kind, _ a: StopEvent, _ b: StopEvent) -> Bool {
        let (x, y) = kind == .departures ? (a.departure, b.departure) : (a.arrival, b.arrival)
        if x != y { return (x ?? .distantPast) < (y ?? .distantPast) }
        if a.tripID != b.tripID { return a.tripID.description.utf8.lexicographicallyPrecedes(b.tripID.description.utf8) }
        if a.stopSequence != b.stopSequence { return a.stopSequence < b.stopSequence }
        return a.serviceDate < b.serviceDate
    }

    /// The events at the stops `places` (placeholders) on the service dates in a range of `day_start`.
    ///
    /// Its arguments are the stops, the window's start and end, the feed and the range of `day_start`.
    /// - Parameters:
    ///   - shift: an SQL expression for how far a run moves the stop time; `exact`, whether it is exact.
    ///   - window: what follows the join of the stop times: the window's condition on them, or a join of
    ///     the runs that carries it.
    ///   - filter: a further condition on the stop time.
    private static func select(
        _ kind: Kind, shift: String, exact: String, places: String, window: String, filter: String
    ) -> String {
        """
        SELECT fd.date, fd.day_start + st.arrival_time + \(shift), fd.day_start + st.departure_time + \(shift),
            st.trip_id, st.stop_id, s.stop_name, s.platform_code, st.stop_sequence, t.route_id, r.route_short_name,
            r.route_long_name, r.route_type, ifnull(st.stop_headsign, t.trip_headsign), t.direction_id, \(exact)
        FROM feed_days fd
        CROSS JOIN stop_times st ON st.stop_id IN (\(places)) AND st.feed = fd.feed
            \(window)
        JOIN trips t ON t.trip_id = st.trip_id AND t.feed = st.feed
        JOIN service_days sd ON sd.feed = fd.feed AND sd.date = fd.date AND sd.service_id = t.service_id
        LEFT JOIN routes r ON r.route_id = t.route_id AND r.feed = t.feed
        LEFT JOIN stops s ON s.stop_id = st.stop_id AND s.feed = st.feed
        WHERE fd.feed = ? AND fd.day_start > ? AND fd.day_start < ?
            AND ifnull(st.\(kind.allowedColumn), 0) <> 1
            AND EXISTS (SELECT 1 FROM stop_times o WHERE o.trip_id = st.trip_id AND o.feed = st.feed
                AND o.stop_sequence \(kind.onward) st.stop_sequence)
            \(filter)
        """
    }

    private static func event(_ row: Row) -> StopEvent? {
        func instant(_ index: Int) -> Date? { (row[index] as Int64?).map { Date(timeIntervalSince1970: Double($0)) } }
        // feed_days holds the dates service_days does, which the store wrote from valid dates.
        guard let serviceDate = (row[0] as Int?).flatMap(GTFSDate.init(integerValue:)) else { return nil }
        return StopEvent(
            serviceDate: serviceDate,
            arrival: instant(1), departure: instant(2),
            tripID: GTFSID((row[3] as String?) ?? ""), stopID: GTFSID((row[4] as String?) ?? ""),
            stopName: row[5], platformCode: row[6], stopSequence: (row[7] as Int?) ?? 0,
            routeID: GTFSID((row[8] as String?) ?? ""), routeShortName: row[9], routeLongName: row[10],
            routeType: (row[11] as Int?).map(RouteType.init(code:)), headsign: row[12], directionID: row[13],
            isExactTime: ((row[14] as Int?) ?? 1) != 0)
    }
}
