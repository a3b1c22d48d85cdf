package import Foundation
import GTFS

/// How a store's SQL differs where the board's queries touch it.
package struct SQLDialect: Sendable {
    /// The placeholder of the `n`-th argument (from 1): `?n` in SQLite (numbered, so that an argument can come anywhere and more than once), `$n` in PostgreSQL.
    package let placeholder: @Sendable (Int) -> String
    /// The join that reads its left side first: SQLite's `CROSS JOIN` fixes the order, which its planner
    /// would otherwise get wrong; PostgreSQL's planner needs no hint.
    package let orderedJoin: String
    /// An expression of a service date (`feed_days.date`) as the integer `YYYYMMDD`.
    package let integerDate: @Sendable (String) -> String
    /// The rows of `arrivals_departures_by_time` whose departure lies in the window of two placeholders, as a
    /// `FROM` item and the condition that selects them (docs/Database.md, "Network-wide windows").
    package let departureWindow: @Sendable (_ from: String, _ to: String) -> (source: String, condition: String)
    /// Whether a realtime board joins each call's prediction as a `LATERAL` subquery: PostgreSQL's planner
    /// then always looks it up by key, where a plain join's plan may turn to reading every prediction
    /// (a board of 133 ms against 8 ms measured); SQLite has no `LATERAL` and looks up by key anyway.
    package let lateralJoin: Bool

    package static let sqlite = SQLDialect(
        placeholder: { "?\($0)" }, orderedJoin: "CROSS JOIN", integerDate: { $0 },
        departureWindow: { from, to in ("arrivals_departures_by_time", "departure_time >= \(from) - day_start AND departure_time < \(to) - day_start") },
        lateralJoin: false)
    package static let postgres = SQLDialect(
        placeholder: { "$\($0)" }, orderedJoin: "JOIN", integerDate: { "to_char(\($0), 'YYYYMMDD')::integer" },
        departureWindow: { from, to in ("arrivals_departures_in(\(from), \(to))", "true") }, lateralJoin: true)
}

/// A value bound to a placeholder.
package enum SQLArgument: Sendable {
    case text(String)
    case integer(Int64)
    case real(Double)
    case null

    /// A text, or NULL.
    package static func text(_ value: String?) -> SQLArgument { value.map(SQLArgument.text) ?? .null }
    /// An integer, or NULL.
    package static func integer(_ value: Int?) -> SQLArgument { value.map { .integer(Int64($0)) } ?? .null }
    /// An integer, or NULL.
    package static func integer(_ value: Int64?) -> SQLArgument { value.map(SQLArgument.integer) ?? .null }
    /// A number, or NULL.
    package static func real(_ value: Double?) -> SQLArgument { value.map(SQLArgument.real) ?? .null }
}

/// A column of a board's row as a store reads it.
package protocol BoardRow {
    /// The integer in column `index` (from 0), `nil` for NULL.
    func integer(_ index: Int) -> Int64?
    /// The text in column `index`, `nil` for NULL.
    func text(_ index: Int) -> String?
    /// The number in column `index`, `nil` for NULL.
    func real(_ index: Int) -> Double?
}

/// The queries behind departure and arrival boards, the same SQL in both stores (``SQLDialect`` apart).
///
/// A stop time's instant is `day_start` of its service date plus its time (plus a run's shift for
/// frequency-based trips). For a window `[start, end)` the service dates to look at are those whose
/// `day_start` lies within the latest time at the stops before `start`, and up to `end`; for each such
/// date the stop times come from the `(stop_id, departure_time)` index in the window moved by that
/// date's `day_start`: a handful of index ranges instead of a scan of every service date.
///
/// A board reads the stops (``stopsSQL``), then for each source, timetabled trips and runs of
/// frequency-based trips, the latest time (``latestSQL(runs:)``) and its events (``eventsSQL(runs:)``),
/// ordered and limited; ``BoardOrder/merge(_:_:_:limit:_:)`` merges the two.
package struct BoardQuery: Sendable {
    package let kind: BoardOrder.Kind
    /// The stops of the board: the one asked for and its platforms.
    package let stops: [String]
    /// The window in whole seconds since 1970 (an instant with a fraction counts from the next second).
    package let from: Int64, to: Int64
    package let limit: Int?
    package let dialect: SQLDialect
    /// For a realtime board: what bounds the predictions it joins.
    package let realtime: RealtimeWindow?

    /// The query of a board of `kind` in `[start, end)`; `nil` when the window is empty or the limit 0.
    package init?(
        _ kind: BoardOrder.Kind, stops: [String], start: Date, end: Date, limit: Int?, dialect: SQLDialect, realtime: RealtimeWindow? = nil
    ) {
        from = Int64(start.timeIntervalSince1970.rounded(.up))
        to = Int64(end.timeIntervalSince1970.rounded(.up))
        guard from < to, limit ?? 1 > 0, !stops.isEmpty else { return nil }
        (self.kind, self.stops, self.limit, self.dialect, self.realtime) = (kind, stops, limit, dialect, realtime)
    }

    /// The scheduled window a board reads: wider by the largest delays for a realtime board, whose
    /// calls are in the window by their predicted instant.
    private var scheduledWindow: (from: Int64, to: Int64) {
        guard let realtime else { return (from, to) }
        return (from - max(realtime.latest, 0), to + max(-realtime.earliest, 0))
    }

    /// What bounds a realtime board's predictions: only those made at `freshSince` or later count, and
    /// the largest delays (``RealtimeWindow/read(_:feed:maxAge:now:)``) widen the timetable's window.
    package struct RealtimeWindow: Sendable {
        package var freshSince: Int64, latest: Int64, earliest: Int64
        /// How many sources the feed has: with one, no call has two predictions to choose from.
        package var sources: Int
    }

    /// The names of the feeds a store holds, for the error of a board of an unknown feed.
    package static let feedNamesSQL = "SELECT name FROM feeds ORDER BY name"

    /// The error of a board whose feed or stop is unknown: an empty board then means no trips in the window.
    /// - Parameters:
    ///   - feedFound: whether the store holds the feed.
    ///   - stops: the board's stops, as ``stopsSQL(_:)`` found them.
    ///   - feedNames: the names of the feeds, read only when the feed is unknown.
    package static func check(
        stopID: String, feed: String, feedFound: Bool, stops: [String], feedNames: () throws -> [String]
    ) throws {
        if !feedFound { throw StoreError.unknownFeed(name: feed, feeds: try feedNames()) }
        if stops.isEmpty { throw StoreError.unknownStop(id: stopID, feed: feed) }
    }

    /// The stops a board of `stopID` covers: it, and its platforms when it is a station. Arguments: the
    /// feed, the stop twice.
    package static func stopsSQL(_ dialect: SQLDialect) -> String {
        "SELECT stop_id FROM stops WHERE feed = \(dialect.placeholder(1)) AND (stop_id = \(dialect.placeholder(2)) OR parent_station = \(dialect.placeholder(3)))"
    }

    /// The latest time at the stops, which bounds how far back a service date can matter. Arguments:
    /// ``latestArguments(feed:)``; its one value is `nil` when no stop time is at the stops.
    package func latestSQL(runs: Bool) -> String {
        let time = kind.timeColumn
        let places = placeholders(from: 1)
        let feed = dialect.placeholder(stops.count + 1)
        return runs
            ? """
            SELECT max(st.\(time) + fr.shift) FROM stop_times st
            JOIN frequency_runs fr ON fr.trip_id = st.trip_id AND fr.feed = st.feed
            WHERE st.stop_id IN (\(places)) AND st.feed = \(feed)
            """
            : "SELECT max(\(time)) FROM stop_times WHERE stop_id IN (\(places)) AND feed = \(feed)"
    }

    /// The arguments of ``latestSQL(runs:)``.
    package func latestArguments(feed: Int64) -> [SQLArgument] { stops.map(SQLArgument.text) + [.integer(feed)] }

    /// The events at the stops on the service dates whose `day_start` lies in a range, in board order.
    /// Arguments: ``eventArguments(feed:latest:)``.
    package func eventsSQL(runs: Bool) -> String {
        let time = kind.timeColumn
        let n = stops.count
        let (from, to) = (dialect.placeholder(n + 1), dialect.placeholder(n + 2))
        let window =
            runs
            ? """
            JOIN frequency_runs fr ON fr.trip_id = st.trip_id AND fr.feed = st.feed
                    AND fd.day_start + st.\(time) + fr.shift >= \(from) AND fd.day_start + st.\(time) + fr.shift < \(to)
            """
            : "AND st.\(time) >= \(from) - fd.day_start AND st.\(time) < \(to) - fd.day_start"
        let filter = runs ? "" : "AND NOT EXISTS (SELECT 1 FROM frequencies f WHERE f.trip_id = st.trip_id AND f.feed = st.feed)"
        let (shift, exact) = runs ? ("fr.shift", "fr.exact_times") : ("0", "1")
        let live = realtimeParts(shift: shift)
        // The instant is the select's second column for arrivals, its third for departures.
        let order = "ORDER BY \(live?.order ?? (kind == .departures ? "3" : "2")), st.trip_id, st.stop_sequence, fd.date" + (limit.map { " LIMIT \($0)" } ?? "")
        return """
            SELECT \(dialect.integerDate("fd.date")), fd.day_start + st.arrival_time + \(shift), fd.day_start + st.departure_time + \(shift),
                st.trip_id, st.stop_id, s.stop_name, s.platform_code, st.stop_sequence, t.route_id, r.route_short_name,
                r.route_long_name, r.route_type, coalesce(st.stop_headsign, t.trip_headsign), t.direction_id, \(exact),
                \(Self.tripNames(trip: "st.trip_id", feed: "st.feed", headsign: "coalesce(st.stop_headsign, t.trip_headsign)", origin: kind == .arrivals)),
                t.trip_short_name\(live?.columns ?? "")
            FROM feed_days fd
            \(dialect.orderedJoin) stop_times st ON st.stop_id IN (\(placeholders(from: 1))) AND st.feed = fd.feed
                \(window)
            JOIN trips t ON t.trip_id = st.trip_id AND t.feed = st.feed
            JOIN service_days sd ON sd.feed = fd.feed AND sd.date = fd.date AND sd.service_id = t.service_id
            LEFT JOIN routes r ON r.route_id = t.route_id AND r.feed = t.feed
            LEFT JOIN stops s ON s.stop_id = st.stop_id AND s.feed = st.feed
            \(live?.join ?? "")
            WHERE fd.feed = \(dialect.placeholder(n + 3)) AND fd.day_start > \(dialect.placeholder(n + 4)) AND fd.day_start < \(dialect.placeholder(n + 5))
                AND coalesce(st.\(kind.allowedColumn), 0) <> 1
                AND EXISTS (SELECT 1 FROM stop_times o WHERE o.trip_id = st.trip_id AND o.feed = st.feed
                    AND o.stop_sequence \(kind.onward) st.stop_sequence)
                \(filter) \(live?.condition ?? "")
            \(order)
            """
    }

    /// What a realtime board adds to ``eventsSQL(runs:)``: the predictions joined (fresh ones only), their
    /// columns, the predicted instant's window and order. Its arguments follow the plain board's.
    private func realtimeParts(shift: String) -> (join: String, columns: String, condition: String, order: String)? {
        guard realtime != nil else { return nil }
        let n = stops.count
        let scheduled = "fd.day_start + st.\(kind.timeColumn) + \(shift)"
        let expected = "CASE WHEN rp.status = 'predicted' THEN coalesce(rp.\(kind.predictedColumn), \(scheduled)) ELSE \(scheduled) END"
        let since = dialect.placeholder(n + 6)
        let call = """
            rp.feed = st.feed AND rp.trip_id = st.trip_id AND rp.date = \(dialect.integerDate("fd.date"))
                AND rp.run_shift = \(shift) AND rp.stop_sequence = st.stop_sequence AND rp.status <> 'added' AND \(Self.fresh(since))
            """
        // Of two sources' fresh predictions of a call, the first source's.
        let join =
            dialect.lateralJoin
            ? "LEFT JOIN LATERAL (SELECT * FROM realtime_predictions rp WHERE \(call) ORDER BY rp.source LIMIT 1) rp ON true"
            : "LEFT JOIN realtime_predictions rp ON \(call)"
                + (realtime.map { $0.sources > 1 } == true ? " AND " + Self.firstSource(since) : "")
        let condition = "AND \(expected) >= \(dialect.placeholder(n + 7)) AND \(expected) < \(dialect.placeholder(n + 8))"
        return (join, Self.realtimeColumns, condition, expected)
    }

    /// Whether the prediction aliased `p` (`rp` unless given) was made at `since` or later: by its update's
    /// timestamp, else by its source's last message (its header's timestamp, else when it was applied).
    private static func fresh(_ since: String, _ p: String = "rp") -> String {
        """
        (\(p).timestamp >= \(since) OR (\(p).timestamp IS NULL AND EXISTS (SELECT 1 FROM realtime_sources rs \
        WHERE rs.feed = \(p).feed AND rs.source = \(p).source AND coalesce(rs.header_timestamp, rs.applied_at) >= \(since))))
        """
    }

    /// Whether no other source's fresh prediction of the call of `rp` comes first (by source): one row a call.
    private static func firstSource(_ since: String) -> String {
        """
        NOT EXISTS (SELECT 1 FROM realtime_predictions rp2 WHERE rp2.feed = rp.feed AND rp2.trip_id = rp.trip_id AND rp2.date = rp.date \
        AND rp2.run_shift = rp.run_shift AND rp2.stop_sequence = rp.stop_sequence AND rp2.source < rp.source AND \(fresh(since, "rp2")))
        """
    }

    /// The prediction's columns of a realtime board's row, after the plain board's.
    private static let realtimeColumns = ", rp.status, rp.arrival, rp.departure, rp.arrival_delay, rp.departure_delay"

    /// The calls of added trips at the stops in the window, in board order: the third source of a realtime
    /// board. Arguments: ``addedArguments(feed:)``.
    package func addedSQL() -> String {
        let time = "rp.\(kind.predictedColumn)"
        let n = stops.count
        let instance = "o.feed = rp.feed AND o.trip_id = rp.trip_id AND o.date = rp.date AND o.run_shift = rp.run_shift"
        func end(_ order: String) -> String {
            """
            (SELECT e.stop_name FROM realtime_predictions o JOIN stops e ON e.stop_id = o.stop_id AND e.feed = o.feed \
            WHERE \(instance) ORDER BY o.stop_sequence \(order) LIMIT 1)
            """
        }
        return """
            SELECT rp.date, rp.arrival, rp.departure, rp.trip_id, rp.stop_id, s.stop_name, s.platform_code, rp.stop_sequence, rp.route_id,
                r.route_short_name, r.route_long_name, r.route_type, NULL, NULL, 1, \(end("DESC")), \(kind == .arrivals ? end("ASC") : "NULL"),
                NULL\(Self.realtimeColumns)
            FROM realtime_predictions rp
            LEFT JOIN routes r ON r.feed = rp.feed AND r.route_id = rp.route_id
            LEFT JOIN stops s ON s.feed = rp.feed AND s.stop_id = rp.stop_id
            WHERE rp.feed = \(dialect.placeholder(n + 1)) AND rp.stop_id IN (\(placeholders(from: 1))) AND rp.status = 'added'
                AND \(Self.fresh(dialect.placeholder(n + 2))) \(realtime.map { $0.sources > 1 } == true ? "AND " + Self.firstSource(dialect.placeholder(n + 2)) : "")
                AND \(time) >= \(dialect.placeholder(n + 3)) AND \(time) < \(dialect.placeholder(n + 4))
                AND EXISTS (SELECT 1 FROM realtime_predictions o WHERE \(instance) AND o.stop_sequence \(kind.onward) rp.stop_sequence)
            ORDER BY \(time), rp.trip_id, rp.stop_sequence, rp.date\(limit.map { " LIMIT \($0)" } ?? "")
            """
    }

    /// The arguments of ``addedSQL()``.
    package func addedArguments(feed: Int64) -> [SQLArgument] {
        stops.map(SQLArgument.text) + [feed, realtime?.freshSince ?? 0, from, to].map(SQLArgument.integer)
    }

    /// The arguments of ``eventsSQL(runs:)``: the stops, the window, the feed, and the range of
    /// `day_start` that `latest` (the answer of ``latestSQL(runs:)``) allows.
    package func eventArguments(feed: Int64, latest: Int64) -> [SQLArgument] {
        let (from, to) = scheduledWindow
        let live = realtime.map { [$0.freshSince, self.from, self.to] } ?? []
        return stops.map(SQLArgument.text) + ([from, to, feed, from - latest - 1, to] + live).map(SQLArgument.integer)
    }

    private func placeholders(from first: Int) -> String {
        (first ..< first + stops.count).map(dialect.placeholder).joined(separator: ", ")
    }

    /// Two columns that name a trip's ends: its last stop's name where `headsign` is NULL, and (for
    /// `origin`) its first stop's name; each read only where it is wanted.
    package static func tripNames(trip: String, feed: String, headsign: String, origin: Bool) -> String {
        func end(_ order: String) -> String {
            """
            (SELECT e.stop_name FROM stop_times o JOIN stops e ON e.stop_id = o.stop_id AND e.feed = o.feed \
            WHERE o.trip_id = \(trip) AND o.feed = \(feed) ORDER BY o.stop_sequence \(order) LIMIT 1)
            """
        }
        return "CASE WHEN \(headsign) IS NULL THEN \(end("DESC")) END, " + (origin ? end("ASC") : "NULL")
    }

    /// The event a row of ``eventsSQL(runs:)`` describes; `nil` for a row that makes none.
    /// The event a row of ``eventsSQL(runs:)`` or ``addedSQL()`` describes; `nil` for a row that makes none.
    package func event(_ row: some BoardRow) -> StopEvent? {
        guard var event = Self.event(row) else { return nil }
        guard realtime != nil else { return event }
        func instant(_ index: Int) -> Date? { row.integer(index).map { Date(timeIntervalSince1970: Double($0)) } }
        let status = row.text(18).flatMap(RealtimeStatus.init(rawValue:)) ?? .scheduled
        event.realtime = RealtimeCall(
            status: status, predictedArrival: instant(19), predictedDeparture: instant(20),
            arrivalDelay: row.integer(21).map { Int($0) }, departureDelay: row.integer(22).map { Int($0) })
        return event
    }

    /// The event a row of a plain board describes; `nil` for a row that makes none.
    package static func event(_ row: some BoardRow) -> StopEvent? {
        func instant(_ index: Int) -> Date? { row.integer(index).map { Date(timeIntervalSince1970: Double($0)) } }
        // feed_days holds the dates service_days does, which the store wrote from valid dates.
        guard let serviceDate = row.integer(0).flatMap({ GTFSDate(integerValue: Int($0)) }) else { return nil }
        return StopEvent(
            serviceDate: serviceDate,
            arrival: instant(1), departure: instant(2),
            tripID: GTFSID(row.text(3) ?? ""), stopID: GTFSID(row.text(4) ?? ""),
            stopName: row.text(5), platformCode: row.text(6), stopSequence: row.integer(7).map { Int($0) } ?? 0,
            routeID: GTFSID(row.text(8) ?? ""), routeShortName: row.text(9), routeLongName: row.text(10),
            routeType: row.integer(11).map { RouteType(code: Int($0)) }, headsign: row.text(12), directionID: row.integer(13).map { Int($0) },
            isExactTime: (row.integer(14) ?? 1) != 0, lastStopName: row.text(15), origin: row.text(16), tripShortName: row.text(17))
    }
}

extension BoardQuery.RealtimeWindow {
    /// The query of a feed's largest and smallest delays (its feed is parameter 1).
    package static func sql(_ dialect: SQLDialect) -> String {
        "SELECT max(latest_delay), min(earliest_delay), count(*) FROM realtime_sources WHERE feed = \(dialect.placeholder(1))"
    }

    /// The window of a realtime board read at `now` that takes predictions up to `maxAge` old.
    package init(latest: Int64?, earliest: Int64?, sources: Int = 1, maxAge: TimeInterval, now: Date) {
        freshSince = Int64((now.timeIntervalSince1970 - maxAge).rounded(.up))
        (self.latest, self.earliest, self.sources) = (latest ?? 0, earliest ?? 0, sources)
    }
}
