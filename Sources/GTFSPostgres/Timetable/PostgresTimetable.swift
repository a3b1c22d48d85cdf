import GTFS
import GTFSStoreCore

/// The timetable as people read it, as in the SQLite store (docs/Database.md): `service_days`,
/// `feed_days` and `frequency_runs` derived from a feed's tables in SQL and rebuilt, per feed and per part,
/// whenever an import changes the files a part comes from (`TimetablePart.sources`); the
/// views `arrivals_departures` and `connections` over them; and `…_readable` views with times as `HH:MM:SS`.
///
/// Where the SQLite store keeps a table of UTC offsets for local times, PostgreSQL knows the time zones:
/// `feed_time_zones` names each feed's zone and `local_text(instant, zone)` writes an instant in it.
enum PostgresTimetable {
    /// `CREATE … IF NOT EXISTS` of the tables, and `CREATE OR REPLACE` of the function and views, in `schema`.
    static func createStatements(schema: String) -> [String] {
        [
            "CREATE TABLE IF NOT EXISTS \(schema).service_days (feed integer NOT NULL, date date NOT NULL, service_id text COLLATE \"C\" NOT NULL, PRIMARY KEY (feed, date, service_id))",
            "CREATE TABLE IF NOT EXISTS \(schema).feed_days (feed integer NOT NULL, date date NOT NULL, day_start bigint NOT NULL, PRIMARY KEY (feed, date))",
            "CREATE TABLE IF NOT EXISTS \(schema).feed_time_zones (feed integer PRIMARY KEY, time_zone text NOT NULL)",
            """
            CREATE TABLE IF NOT EXISTS \(schema).frequency_runs (feed integer NOT NULL, trip_id text COLLATE \"C\" NOT NULL, run_start integer NOT NULL,
                shift integer NOT NULL, exact_times smallint NOT NULL, PRIMARY KEY (feed, trip_id, run_start))
            """,
            """
            CREATE OR REPLACE FUNCTION \(schema).local_text(instant bigint, zone text) RETURNS text LANGUAGE sql STABLE AS $$
                SELECT to_char(timezone(zone, to_timestamp(instant)), 'YYYY-MM-DD"T"HH24:MI:SS')
                    || CASE WHEN timezone(zone, to_timestamp(instant)) < timezone('UTC', to_timestamp(instant)) THEN '-' ELSE '+' END
                    || to_char(abs(extract(epoch FROM timezone(zone, to_timestamp(instant)) - timezone('UTC', to_timestamp(instant))))
                        * interval '1 second', 'HH24:MI')
            $$
            """,
            TimetableViews.frequencyDeparturesTable(dialect(schema)),
            TimetableViews.frequencyDeparturesIndex(dialect(schema)),
        ] + TimetableViews.createStatements(dialect(schema), create: "CREATE OR REPLACE VIEW")
            + ["arrivals_departures", "connections"].map { windowFunction(view: $0, schema: schema) } + [
            PostgresStopNames.createStatement(schema: schema),
            // After arrivals_departures, which it reads; the realtime tables come with the schema's catalog.
            realtimeViewStatement(schema: schema),
        ] + readableViews(schema: schema)
    }

    /// Text compared byte by byte, the type of the ids of every table.
    static let collatedText = "text COLLATE \"C\""

    /// `realtime_arrivals_departures` in `schema` (`RealtimeTables.viewStatement`).
    static func realtimeViewStatement(schema: String) -> String {
        RealtimeTables.viewStatement(
            name: { "\(schema).\($0)" }, create: "CREATE OR REPLACE VIEW", integerDate: { "to_char(\($0), 'YYYYMMDD')::integer" },
            dateOf: { "to_date(\($0)::text, 'YYYYMMDD')" })
    }

    /// `CREATE INDEX IF NOT EXISTS` of a lookup index in `schema`.
    static func indexStatement(_ index: LookupIndex, schema: String) -> String {
        "CREATE INDEX IF NOT EXISTS \(index.name) ON \(schema).\(index.file.rawValue) \(index.definition)"
    }

    /// The indexes of the timetable's reads on the GTFS tables, built after a load: the stops' latitudes,
    /// for the stops near a point.
    static func indexStatements(schema: String) -> [String] {
        ["CREATE INDEX IF NOT EXISTS stops_latitude ON \(schema).stops (feed, stop_lat)"]
    }

    /// `arrivals_departures_in(t0, t1)` (`connections_in`): the rows of the view (its `_by_time` form) whose departure is in
    /// `[t0, t1)` (Unix seconds), the network-wide window. It asks the view once per service date that can
    /// reach the window (`day_start` from the feed's latest departure before `t0` up to `t1`), with the
    /// date's range of `departure_time` as constants: planned so, PostgreSQL reads the range from the
    /// `stop_times_departure` index; the view's form `departure_time >= t0 - day_start` gives it no
    /// estimate and it scans every stop time instead.
    static func windowFunction(view: String, schema: String) -> String {
        """
        CREATE OR REPLACE FUNCTION \(schema).\(view)_in(t0 bigint, t1 bigint) RETURNS SETOF \(schema).\(view)_by_time
        LANGUAGE plpgsql STABLE AS $function$
        DECLARE d record;
        BEGIN
            FOR d IN
                SELECT fd.feed, fd.date, fd.day_start FROM \(schema).feed_days fd
                JOIN (SELECT f.feed, greatest(
                        (SELECT max(st.departure_time) FROM \(schema).stop_times st WHERE st.feed = f.feed),
                        (SELECT max(fe.departure_time) FROM \(schema).frequency_departures fe WHERE fe.feed = f.feed)) AS latest
                    FROM \(schema).feeds f) l ON l.feed = fd.feed
                WHERE fd.day_start < t1 AND fd.day_start + l.latest >= t0
                ORDER BY fd.feed, fd.date
            LOOP
                RETURN QUERY EXECUTE 'SELECT * FROM \(schema).\(view)_by_time WHERE feed = $1 AND date = $2 AND departure_time >= $3 AND departure_time < $4'
                    USING d.feed, d.date, t0 - d.day_start, t1 - d.day_start;
            END LOOP;
        END
        $function$
        """
    }

    /// The views' dialect in `schema`: local times by `local_text` in the feed's zone, the next stop by a
    /// lateral subquery (which reads one index entry, where a correlated `min` reads the trip's rest).
    static func dialect(_ schema: String) -> TimetableViews.Dialect {
        TimetableViews.Dialect(
            name: { "\(schema).\($0)" }, orderedJoin: "JOIN",
            localText: { instant, _ in "\(schema).local_text(\(instant), z.time_zone)" },
            zoneJoin: { alias in "JOIN \(schema).feed_time_zones z ON z.feed = \(alias).feed" },
            nextStop: { table in
                """
                JOIN LATERAL (
                    SELECT c.stop_id, c.stop_sequence, c.arrival_time FROM \(table) c
                    WHERE c.feed = a.feed AND c.trip_id = a.trip_id AND c.stop_sequence > a.stop_sequence
                    ORDER BY c.stop_sequence LIMIT 1) b ON true
                """
            },
            nullSmallint: "NULL::smallint", idType: collatedText)
    }

    /// A `…_readable` view for each table with times: every column, times as `HH:MM:SS` (hours may pass 24).
    /// Dates need none: they are `date`.
    static func readableViews(schema: String) -> [String] {
        GTFSFile.allCases.compactMap { file in
            let fields = file.table.fields
            guard fields.contains(where: { $0.type == .time }) else { return nil }
            let columns = fields.map { field in
                field.type == .time
                    ? "lpad((\(field.name) / 3600)::text, 2, '0') || ':' || lpad((\(field.name) / 60 % 60)::text, 2, '0') || ':' "
                        + "|| lpad((\(field.name) % 60)::text, 2, '0') AS \(field.name)"
                    : field.name
            }
            return "CREATE OR REPLACE VIEW \(schema).\(file.rawValue)_readable AS SELECT feed, \(columns.joined(separator: ", ")) FROM \(schema).\(file.rawValue)"
        }
    }

    /// The tables each part fills.
    private static func tables(of part: TimetablePart) -> [String] {
        switch part {
        case .calendar: ["service_days", "feed_days", "feed_time_zones"]
        case .frequencies: ["frequency_runs", "frequency_departures"]
        case .stops: ["stop_name_words"]
        }
    }

    /// Rebuilds the parts of `feed` that come from a file in `changed`.
    /// - Returns: warnings about the feed, as the SQLite store gives them.
    static func update(
        schema: String, feed: Int32, changed: Set<GTFSFile>, connection: PostgresConnection
    ) throws -> [GTFSWarning] {
        var warnings: [GTFSWarning] = []
        for part in TimetablePart.allCases where !part.sources.isDisjoint(with: changed) {
            for table in tables(of: part) {
                try connection.execute("DELETE FROM \(schema).\(table) WHERE feed = \(feed)", "rebuild \(table)")
            }
            switch part {
            case .calendar: warnings += try buildCalendar(schema: schema, feed: feed, connection: connection)
            case .frequencies: warnings += try buildFrequencyRuns(schema: schema, feed: feed, connection: connection)
            case .stops: try PostgresStopNames.fill(schema: schema, feed: feed, connection: connection)
            }
            // The windows' plans join these tables: statistics from before the rebuild (or none, in a new
            // schema) make the planner scan them whole.
            try connection.execute("ANALYZE " + tables(of: part).map { "\(schema).\($0)" }.joined(separator: ", "), "analyze the timetable")
        }
        return warnings
    }

    /// Deletes what the timetable holds of `feed` (a feed being removed).
    static func remove(schema: String, feed: Int32, connection: PostgresConnection) throws(PostgresError) {
        for table in TimetablePart.allCases.flatMap(tables(of:)) {
            try connection.execute("DELETE FROM \(schema).\(table) WHERE feed = \(feed)", "delete from \(table)")
        }
    }

    /// `service_days` (`ServiceDates`, the SQLite store's rule), `feed_days` and the feed's
    /// time zone.
    private static func buildCalendar(schema: String, feed: Int32, connection: PostgresConnection) throws -> [GTFSWarning] {
        var warnings = [try fillServiceDays(schema: schema, feed: feed, connection: connection)].compactMap { $0 }
        // The zone, else UTC.
        let zones = try connection.query(
            FeedClock.zoneSQL(.postgres, table: "\(schema).agency"), [String(feed)],
            "read the time zone")
        var zone = "UTC"
        var zoneWarning: GTFSWarning?
        if let row = zones.first, let name = row[0] {
            if try isKnownZone(name, connection: connection) {
                zone = name
            } else {
                zoneWarning = GTFSError(
                    .invalidValue, file: GTFSFile.agency.fileName, column: "agency_timezone", text: name,
                    message: "is not a known time zone: times are placed in UTC")
            }
        } else {
            zoneWarning = GTFSError(
                .missingValue, file: GTFSFile.agency.fileName, column: "agency_timezone", message: "is missing: times are placed in UTC")
        }
        let days = try connection.query(
            """
            WITH zone AS (INSERT INTO \(schema).feed_time_zones (feed, time_zone) VALUES (\(feed), $1) RETURNING time_zone)
            INSERT INTO \(schema).feed_days (feed, date, day_start)
            SELECT \(feed), d.date, extract(epoch FROM (d.date + time '12:00') AT TIME ZONE z.time_zone)::bigint - 43200
            FROM (SELECT DISTINCT date FROM \(schema).service_days WHERE feed = \(feed)) d, zone z
            RETURNING 1
            """, [zone], "fill feed_days")
        // As in the SQLite store, the zone matters only to a feed with service days.
        if let zoneWarning, !days.isEmpty { warnings.append(zoneWarning) }
        return warnings
    }

    /// The rows of `service_days`, from the calendars, then the exceptions read through a cursor, sent ten
    /// thousand at a time: bounded memory for any feed.
    /// - Returns: the warning about a calendar cut at the span's end, if one was.
    private static func fillServiceDays(schema: String, feed: Int32, connection: PostgresConnection) throws -> GTFSWarning? {
        let calendars = try connection.query(
            """
            SELECT service_id, monday, tuesday, wednesday, thursday, friday, saturday, sunday, to_char(start_date, 'YYYYMMDD'),
                to_char(end_date, 'YYYYMMDD') FROM \(schema).calendar WHERE feed = \(feed) ORDER BY service_id
            """, [], "read the calendars")
        let firstException = try connection.query(
            "SELECT to_char(min(date), 'YYYYMMDD') FROM \(schema).calendar_dates WHERE feed = \(feed)", [], "read the exceptions")
        let starts = calendars.compactMap { $0[8].flatMap { GTFSDate($0) } } + [firstException.first?.first.flatMap { $0 }.flatMap { GTFSDate($0) }].compactMap { $0 }
        guard let first = starts.min() else { return nil }
        var dates = ServiceDates(first: first)
        for row in calendars {
            guard let service = row[0], let start = row[8].flatMap({ GTFSDate($0) }), let end = row[9].flatMap({ GTFSDate($0) }) else { continue }
            dates.add(service: service, start: start, end: end, weekdays: (1 ... 7).map { row[$0] == "1" })
        }
        try connection.execute(
            "DECLARE exceptions NO SCROLL CURSOR FOR SELECT service_id, to_char(date, 'YYYYMMDD'), exception_type FROM \(schema).calendar_dates WHERE feed = \(feed)",
            "read the exceptions")
        let cursor = PostgresCursor(name: "exceptions", batch: 5_000, connection: connection, operation: "read the exceptions")
        while let row = try cursor.nextRow() {
            guard let service = row[0], let date = row[1].flatMap({ GTFSDate($0) }), let type = row[2].flatMap({ Int($0) }) else { continue }
            dates.apply(service: service, date: date, exceptionType: type)
        }
        try connection.execute("CLOSE exceptions", "read the exceptions")
        var rows: (dates: [String?], services: [String?]) = ([], [])
        func send() throws(PostgresError) {
            guard !rows.dates.isEmpty else { return }
            _ = try connection.query(
                "INSERT INTO \(schema).service_days (feed, date, service_id) SELECT \(feed), unnest($1::date[]), unnest($2::text[])",
                [PostgresConnection.arrayLiteral(rows.dates), PostgresConnection.arrayLiteral(rows.services)], "fill service_days")
            rows = ([], [])
        }
        try dates.forEachServiceDay { date, services in
            for service in services {
                rows.dates.append(date.description)
                rows.services.append(service)
            }
            if rows.dates.count >= 10_000 { try send() }
        }
        try send()
        return dates.clippedWarning
    }

    /// Whether the server knows the time zone `name` (asking `pg_timezone_names` reads every zone file:
    /// 0.4 s, and not interruptible).
    private static func isKnownZone(_ name: String, connection: PostgresConnection) throws(PostgresError) -> Bool {
        try connection.execute("SAVEPOINT zone", "check the time zone")
        do {
            _ = try connection.query("SELECT now() AT TIME ZONE $1", [name], "check the time zone")
            try connection.execute("RELEASE SAVEPOINT zone", "check the time zone")
            return true
        } catch {
            try connection.execute("ROLLBACK TO SAVEPOINT zone; RELEASE SAVEPOINT zone", "check the time zone")
            return false
        }
    }

    /// `frequency_runs`: every run of each row of `frequencies.txt`, `start_time` then every
    /// `headway_secs` before `end_time`, at most `TimetablePart.maxRunsPerFrequency` per row.
    private static func buildFrequencyRuns(schema: String, feed: Int32, connection: PostgresConnection) throws(PostgresError) -> [GTFSWarning] {
        let limit = TimetablePart.maxRunsPerFrequency
        try connection.execute(
            """
            INSERT INTO \(schema).frequency_runs (feed, trip_id, run_start, shift, exact_times)
            SELECT f.feed, f.trip_id, g.run, g.run - first.t, coalesce(f.exact_times, 0)
            FROM \(schema).frequencies f
            CROSS JOIN LATERAL (
                SELECT coalesce(st.departure_time, st.arrival_time) AS t FROM \(schema).stop_times st
                WHERE st.feed = f.feed AND st.trip_id = f.trip_id ORDER BY st.stop_sequence LIMIT 1) first
            CROSS JOIN LATERAL generate_series(f.start_time, f.end_time - 1, f.headway_secs) WITH ORDINALITY g(run, n)
            WHERE f.feed = \(feed) AND f.headway_secs >= 1 AND g.n <= \(limit) AND first.t IS NOT NULL
            ON CONFLICT DO NOTHING
            """, "fill frequency_runs")
        try connection.execute(TimetableViews.fillFrequencyDepartures(dialect(schema), feed: String(feed)), "fill frequency_departures")
        let problems = try connection.query(
            """
            SELECT trip_id, headway_secs, headway_secs < 1 FROM \(schema).frequencies
            WHERE feed = \(feed) AND (headway_secs < 1 OR (end_time - start_time + headway_secs - 1) / headway_secs > \(limit))
            ORDER BY trip_id, start_time
            """, [], "look for frequencies without runs")
        return problems.map { row in
            let trip = row[0] ?? "", headway = row[1] ?? ""
            return GTFSError(
                .invalidValue, file: GTFSFile.frequencies.fileName, column: "headway_secs", text: headway,
                message: row[2] == "t" ? "of trip \(trip) gives no runs" : "of trip \(trip) gives more than \(limit) runs; the first \(limit) are kept")
        }
    }
}
