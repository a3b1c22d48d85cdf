package import Foundation

/// The query behind the departures of a whole network in a window (`FeedStore.forEachDeparture(between:and:feed:limit:_:)`),
/// the same in both stores but for ``SQLDialect/departureWindow``: the rows of `arrivals_departures_by_time` in the
/// window, boardable and not at a trip's last stop, in board order. Its columns are those of
/// ``BoardQuery/eventsSQL(runs:)``, so ``BoardQuery/event(_:)`` reads them.
package struct NetworkWindowQuery: Sendable {
    /// The window in whole seconds since 1970 (an instant with a fraction counts from the next second).
    package let from: Int64, to: Int64
    package let limit: Int?
    package let dialect: SQLDialect

    /// The query of `[start, end)`; `nil` when the window is empty or the limit 0.
    package init?(start: Date, end: Date, limit: Int?, dialect: SQLDialect) {
        from = Int64(start.timeIntervalSince1970.rounded(.up))
        to = Int64(end.timeIntervalSince1970.rounded(.up))
        guard from < to, limit ?? 1 > 0 else { return nil }
        (self.limit, self.dialect) = (limit, dialect)
    }

    /// The SQL; arguments: ``arguments(feed:)``.
    package var sql: String {
        let window = dialect.departureWindow(dialect.placeholder(1), dialect.placeholder(2))
        return """
            SELECT \(dialect.integerDate("date")), arrival, departure, trip_id, stop_id, stop_name, platform_code, stop_sequence, route_id,
                route_short_name, route_long_name, route_type, headsign, direction_id, coalesce(exact_times, 1),
                \(BoardQuery.tripNames(trip: "v.trip_id", feed: "v.feed", headsign: "v.headsign", origin: false)),
                trip_short_name
            FROM \(window.source) v
            WHERE \(window.condition) AND feed = \(dialect.placeholder(3)) AND coalesce(pickup_type, 0) <> 1 AND NOT is_last_stop
            ORDER BY departure, trip_id, stop_sequence, date
            """ + (limit.map { " LIMIT \($0)" } ?? "")
    }

    /// The arguments of ``sql``: the window, the feed's number.
    package func arguments(feed: Int64) -> [SQLArgument] { [.integer(from), .integer(to), .integer(feed)] }
}
