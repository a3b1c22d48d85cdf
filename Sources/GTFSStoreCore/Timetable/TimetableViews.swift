/// The timetable's views and the table of frequency runs' departures some read: one definition for both
/// stores, which differ in a few words of SQL (``TimetableViews/Dialect``).
///
/// `arrivals_departures` and `connections` are one join each (stop times, trips, service days, runs), which
/// the planner fits to whatever a query asks. `arrivals_departures_by_time` and `connections_by_time` hold
/// the same rows for the question of a window of instants: each is two parts joined by `UNION ALL`, the
/// stop times of timetabled trips and those of each run of a `frequencies.txt` trip, both starting from a
/// service date's `day_start`, so that `departure_time >= t0 - day_start AND departure_time < t1 -
/// day_start` (`departure_time` is the departure's seconds after `day_start`, a run's shift included)
/// reads one range per service date of the `stop_times(departure_time, feed)` lookup index, or of
/// `frequency_departures` for runs. Dates whose range holds no time of the feed cost one index probe
/// each, so the form needs no bound on how far back a trip can start: it holds for any feed. Other
/// conditions on these views are applied after (SQLite computes them part by part), so the plain views
/// serve every other question.
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
    package static let names = ["arrivals_departures", "connections", "arrivals_departures_by_time", "connections_by_time"]

    /// Which stop times a part of a view reads, and from where.
    enum Part {
        /// Every stop time on every service date, runs expanded: one join.
        case all
        /// The stop times of timetabled trips, from `feed_days` through the departure-time index.
        case timetabled
        /// The stop times of frequency runs, from `feed_days` through `frequency_departures`.
        case runs
    }

    /// `CREATE VIEW` (or `CREATE OR REPLACE VIEW`, `create` says which) of each view in ``names``.
    package static func createStatements(_ dialect: Dialect, create: String) -> [String] {
        [
            "\(create) \(dialect.name("arrivals_departures")) AS\n\(events(dialect, .all))",
            "\(create) \(dialect.name("connections")) AS\n\(connections(dialect, .all))",
            "\(create) \(dialect.name("arrivals_departures_by_time")) AS\n\(events(dialect, .timetabled))\nUNION ALL\n\(events(dialect, .runs))",
            "\(create) \(dialect.name("connections_by_time")) AS\n\(connections(dialect, .timetabled))\nUNION ALL\n\(connections(dialect, .runs))",
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
    /// and their run (`fr`; for `.runs` through `fe`), and the conditions on them.
    private static func from(_ dialect: Dialect, _ alias: String, _ part: Part) -> (sql: String, filter: String) {
        let n = dialect.name
        guard part != .all else {
            let sql = """
                FROM \(n("stop_times")) \(alias)
                JOIN \(n("trips")) t ON t.feed = \(alias).feed AND t.trip_id = \(alias).trip_id
                JOIN \(n("service_days")) sd ON sd.feed = t.feed AND sd.service_id = t.service_id
                JOIN \(n("feed_days")) fd ON fd.feed = sd.feed AND fd.date = sd.date
                \(dialect.zoneJoin(alias))
                LEFT JOIN \(n("frequency_runs")) fr ON fr.feed = \(alias).feed AND fr.trip_id = \(alias).trip_id
                """
            // A frequency-based trip appears once per run, never as the template its stop times give.
            return (sql, "WHERE fr.trip_id IS NOT NULL OR " + timetabled(dialect, alias))
        }
        let join = dialect.orderedJoin
        let trips = """
            \(join) \(n("trips")) t ON t.feed = \(alias).feed AND t.trip_id = \(alias).trip_id
            \(join) \(n("service_days")) sd ON sd.feed = fd.feed AND sd.date = fd.date AND sd.service_id = t.service_id
            \(dialect.zoneJoin(alias))
            """
        guard part == .runs else {
            return ("FROM \(n("feed_days")) fd\n\(join) \(n("stop_times")) \(alias) ON \(alias).feed = fd.feed\n" + trips,
                    "WHERE " + timetabled(dialect, alias))
        }
        let sql = """
            FROM \(n("feed_days")) fd
            \(join) \(n("frequency_departures")) fe ON fe.feed = fd.feed
            JOIN \(n("frequency_runs")) fr ON fr.feed = fe.feed AND fr.trip_id = fe.trip_id AND fr.run_start = fe.run_start
            JOIN \(n("stop_times")) \(alias) ON \(alias).feed = fe.feed AND \(alias).trip_id = fe.trip_id AND \(alias).stop_sequence = fe.stop_sequence
            """ + "\n" + trips
        return (sql, "")
    }

    /// The stop times of trips that are not frequency-based.
    private static func timetabled(_ dialect: Dialect, _ alias: String) -> String {
        "NOT EXISTS (SELECT 1 FROM \(dialect.name("frequencies")) f WHERE f.trip_id = \(alias).trip_id AND f.feed = \(alias).feed)"
    }

    /// A part's run shift, and its departure second after `day_start` given the stop time's alias.
    private static func shift(_ part: Part, _ alias: String) -> (shift: String, departureTime: String) {
        switch part {
        case .all: ("coalesce(fr.shift, 0)", "\(alias).departure_time + coalesce(fr.shift, 0)")
        case .timetabled: ("0", "\(alias).departure_time")
        case .runs: ("fr.shift", "fe.departure_time")
        }
    }

    private static func events(_ dialect: Dialect, _ part: Part) -> String {
        let n = dialect.name
        let (from, filter) = from(dialect, "st", part)
        let (shift, departureTime) = shift(part, "st")
        let (arrival, departure) = ("fd.day_start + st.arrival_time + \(shift)", "fd.day_start + \(departureTime)")
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
                \(shift) AS run_shift, \(part == .timetabled ? dialect.nullSmallint : "fr.exact_times") AS exact_times,
                fd.day_start AS day_start, \(departureTime) AS departure_time, t.trip_short_name AS trip_short_name
            \(from)
            LEFT JOIN \(n("routes")) r ON r.feed = t.feed AND r.route_id = t.route_id
            LEFT JOIN \(n("stops")) s ON s.feed = st.feed AND s.stop_id = st.stop_id
            \(filter)
            """
    }

    private static func connections(_ dialect: Dialect, _ part: Part) -> String {
        let n = dialect.name
        let (from, filter) = from(dialect, "a", part)
        let (shift, departureTime) = shift(part, "a")
        let (departure, arrival) = ("fd.day_start + \(departureTime)", "fd.day_start + b.arrival_time + \(shift)")
        return """
            SELECT
                a.feed AS feed, sd.date AS date, a.trip_id AS trip_id, t.route_id AS route_id, r.route_short_name AS route_short_name,
                r.route_type AS route_type, coalesce(a.stop_headsign, t.trip_headsign) AS headsign,
                a.stop_id AS from_stop_id, a.stop_sequence AS from_stop_sequence,
                \(departure) AS departure, \(dialect.localText(departure, "a")) AS departure_local,
                b.stop_id AS to_stop_id, b.stop_sequence AS to_stop_sequence,
                \(arrival) AS arrival, \(dialect.localText(arrival, "a")) AS arrival_local,
                \(shift) AS run_shift, fd.day_start AS day_start, \(departureTime) AS departure_time
            \(from)
            \(dialect.nextStop(n("stop_times")))
            LEFT JOIN \(n("routes")) r ON r.feed = t.feed AND r.route_id = t.route_id
            \(filter)
            """
    }
}
