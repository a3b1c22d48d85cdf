/// The timetable's views, `arrivals_departures` and `connections`, and the table of frequency runs'
/// departures they read: one definition for both stores, which differ in a few words of SQL
/// (``TimetableViews/Dialect``).
///
/// Each view is two parts joined by `UNION ALL`: the stop times of timetabled trips, and the stop times of
/// each run of a `frequencies.txt` trip. Both parts start from a service date's `day_start` and expose it,
/// with `departure_time`, the departure's seconds after it (a run's shift included), so that a window of
/// instants `[t0, t1)` written as `departure_time >= t0 - day_start AND departure_time < t1 - day_start`
/// reads, for each service date, one range of an index ordered by departure second: the
/// `stop_times(departure_time, feed)` lookup index for timetabled trips, `frequency_departures` for runs.
/// Dates whose range holds no time of the feed cost one index probe each, so the form needs no bound on
/// how far back a trip can start: it holds for any feed (times past 48:00 too).
package enum TimetableViews {
    /// How a store's SQL differs in the views.
    package struct Dialect: Sendable {
        /// A table or function of the store, qualified by its schema where it has one.
        package let name: @Sendable (String) -> String
        /// The join that reads its left side first: SQLite's `CROSS JOIN`, without which its planner
        /// may scan the stop times first; PostgreSQL's planner needs no hint.
        package let orderedJoin: String
        /// The local ISO 8601 text of an instant (an SQL expression) of the feed whose stop times are aliased
        /// as the second argument.
        package let localText: @Sendable (_ instant: String, _ alias: String) -> String
        /// What the local text needs joined (PostgreSQL: the feed's time zone, `z`), after the stop times
        /// aliased as the argument.
        package let zoneJoin: @Sendable (_ alias: String) -> String
        /// The join of `b`, the stop of trip after the stop time aliased `a`.
        package let nextStop: @Sendable (_ table: String) -> String
        /// A NULL of type `smallint` (the frequency runs' `exact_times`).
        package let nullSmallint: String
        /// The type of an id column, compared byte by byte.
        package let idType: String

        package init(
            name: @escaping @Sendable (String) -> String, orderedJoin: String,
            localText: @escaping @Sendable (String, String) -> String, zoneJoin: @escaping @Sendable (String) -> String,
            nextStop: @escaping @Sendable (String) -> String, nullSmallint: String, idType: String
        ) {
            (self.name, self.orderedJoin, self.localText, self.zoneJoin, self.nextStop) = (name, orderedJoin, localText, zoneJoin, nextStop)
            (self.nullSmallint, self.idType) = (nullSmallint, idType)
        }
    }

    /// The view names, in creation order.
    package static let names = ["arrivals_departures", "connections"]

    /// `CREATE VIEW` (or `CREATE OR REPLACE VIEW`, `create` says which) of each view in ``names``.
    package static func createStatements(_ dialect: Dialect, create: String) -> [String] {
        [
            "\(create) \(dialect.name("arrivals_departures")) AS\n\(events(dialect, runs: false))\nUNION ALL\n\(events(dialect, runs: true))",
            "\(create) \(dialect.name("connections")) AS\n\(connections(dialect, runs: false))\nUNION ALL\n\(connections(dialect, runs: true))",
        ]
    }

    /// `frequency_departures`: a row per stop time of each run of a frequency-based trip, with its
    /// departure second in the service day (NULL where the stop time has none), for the window's index.
    /// Columns of the same types in both stores.
    package static func frequencyDeparturesTable(_ dialect: Dialect) -> String {
        """
        CREATE TABLE IF NOT EXISTS \(dialect.name("frequency_departures")) (feed integer NOT NULL, trip_id \(dialect.idType) NOT NULL, \
        run_start integer NOT NULL, stop_sequence integer NOT NULL, departure_time integer)
        """
    }

    /// The index of `frequency_departures` by feed and departure second.
    package static func frequencyDeparturesIndex(_ dialect: Dialect) -> String {
        "CREATE INDEX IF NOT EXISTS frequency_departures_time ON \(dialect.name("frequency_departures")) (feed, departure_time)"
    }

    /// Fills `frequency_departures` for the feed `feed` (an SQL expression) from its `frequency_runs`.
    package static func fillFrequencyDepartures(_ dialect: Dialect, feed: String) -> String {
        """
        INSERT INTO \(dialect.name("frequency_departures")) (feed, trip_id, run_start, stop_sequence, departure_time)
        SELECT fr.feed, fr.trip_id, fr.run_start, st.stop_sequence, st.departure_time + fr.shift
        FROM \(dialect.name("frequency_runs")) fr
        JOIN \(dialect.name("stop_times")) st ON st.trip_id = fr.trip_id AND st.feed = fr.feed
        WHERE fr.feed = \(feed)
        """
    }

    /// The stop times aliased `alias` on the service dates they run (`fd`, `sd`), with their trip (`t`)
    /// and, for runs, their run (`fr`, through `fe`); `departure` is the expression of their departure
    /// second in the service day.
    private static func from(_ dialect: Dialect, _ alias: String, runs: Bool) -> (sql: String, departure: String) {
        let n = dialect.name
        let days = "FROM \(n("feed_days")) fd\n"
        let join = dialect.orderedJoin
        let trips = """
            \(join) \(n("trips")) t ON t.feed = \(alias).feed AND t.trip_id = \(alias).trip_id
            \(join) \(n("service_days")) sd ON sd.feed = fd.feed AND sd.date = fd.date AND sd.service_id = t.service_id
            \(dialect.zoneJoin(alias))
            """
        guard runs else {
            return (days + "\(dialect.orderedJoin) \(n("stop_times")) \(alias) ON \(alias).feed = fd.feed\n" + trips, "\(alias).departure_time")
        }
        let sql = days + """
            \(dialect.orderedJoin) \(n("frequency_departures")) fe ON fe.feed = fd.feed
            JOIN \(n("frequency_runs")) fr ON fr.feed = fe.feed AND fr.trip_id = fe.trip_id AND fr.run_start = fe.run_start
            JOIN \(n("stop_times")) \(alias) ON \(alias).feed = fe.feed AND \(alias).trip_id = fe.trip_id AND \(alias).stop_sequence = fe.stop_sequence
            """ + "\n" + trips
        return (sql, "fe.departure_time")
    }

    /// A timetabled trip's stop times are in the first part; a frequency-based trip's only as its runs.
    private static func timetabledOnly(_ dialect: Dialect, _ alias: String) -> String {
        "WHERE NOT EXISTS (SELECT 1 FROM \(dialect.name("frequencies")) f WHERE f.trip_id = \(alias).trip_id AND f.feed = \(alias).feed)"
    }

    private static func events(_ dialect: Dialect, runs: Bool) -> String {
        let n = dialect.name
        let (from, departureTime) = from(dialect, "st", runs: runs)
        let shift = runs ? " + fr.shift" : ""
        let (arrival, departure) = ("fd.day_start + st.arrival_time\(shift)", "fd.day_start + \(departureTime)")
        return """
            SELECT
                st.feed AS feed, sd.date AS date, st.trip_id AS trip_id, st.stop_sequence AS stop_sequence, st.stop_id AS stop_id,
                \(arrival) AS arrival, \(departure) AS departure,
                \(dialect.localText(arrival, "st")) AS arrival_local,
                \(dialect.localText(departure, "st")) AS departure_local,
                t.route_id AS route_id, r.route_short_name AS route_short_name, r.route_long_name AS route_long_name,
                r.route_type AS route_type, coalesce(st.stop_headsign, t.trip_headsign) AS headsign, t.direction_id AS direction_id,
                t.service_id AS service_id, s.stop_name AS stop_name, s.parent_station AS parent_station,
                s.platform_code AS platform_code, st.pickup_type AS pickup_type, st.drop_off_type AS drop_off_type,
                NOT EXISTS (SELECT 1 FROM \(n("stop_times")) p WHERE p.trip_id = st.trip_id AND p.feed = st.feed AND p.stop_sequence < st.stop_sequence)
                    AS is_first_stop,
                NOT EXISTS (SELECT 1 FROM \(n("stop_times")) x WHERE x.trip_id = st.trip_id AND x.feed = st.feed AND x.stop_sequence > st.stop_sequence)
                    AS is_last_stop,
                \(runs ? "fr.shift" : "0") AS run_shift, \(runs ? "fr.exact_times" : dialect.nullSmallint) AS exact_times,
                fd.day_start AS day_start, \(departureTime) AS departure_time
            \(from)
            LEFT JOIN \(n("routes")) r ON r.feed = t.feed AND r.route_id = t.route_id
            LEFT JOIN \(n("stops")) s ON s.feed = st.feed AND s.stop_id = st.stop_id
            \(runs ? "" : timetabledOnly(dialect, "st"))
            """
    }

    private static func connections(_ dialect: Dialect, runs: Bool) -> String {
        let n = dialect.name
        let (from, departureTime) = from(dialect, "a", runs: runs)
        let shift = runs ? " + fr.shift" : ""
        let (departure, arrival) = ("fd.day_start + \(departureTime)", "fd.day_start + b.arrival_time\(shift)")
        return """
            SELECT
                a.feed AS feed, sd.date AS date, a.trip_id AS trip_id, t.route_id AS route_id, r.route_short_name AS route_short_name,
                r.route_type AS route_type, coalesce(a.stop_headsign, t.trip_headsign) AS headsign,
                a.stop_id AS from_stop_id, a.stop_sequence AS from_stop_sequence,
                \(departure) AS departure, \(dialect.localText(departure, "a")) AS departure_local,
                b.stop_id AS to_stop_id, b.stop_sequence AS to_stop_sequence,
                \(arrival) AS arrival, \(dialect.localText(arrival, "a")) AS arrival_local,
                \(runs ? "fr.shift" : "0") AS run_shift, fd.day_start AS day_start, \(departureTime) AS departure_time
            \(from)
            \(dialect.nextStop(n("stop_times")))
            LEFT JOIN \(n("routes")) r ON r.feed = t.feed AND r.route_id = t.route_id
            \(runs ? "" : timetabledOnly(dialect, "a"))
            """
    }
}
