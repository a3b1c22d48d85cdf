import GRDB
import GTFS
import GTFSStoreCore

/// Version 7 of the store's schema: network-wide time windows from an index.
///
/// - `stop_times_departure`, the lookup index `stop_times(departure_time, feed)`;
/// - `frequency_departures (feed, trip_id, run_start, stop_sequence, departure_time)`: every stop time of
///   every run of a frequency-based trip with its departure second in the service day, indexed by feed and
///   second, filled with `frequency_runs`;
/// - `arrivals_departures` and `connections` recreated as ``TimetableViews`` defines them, with two more
///   columns, `day_start` and `departure_time` (the departure's seconds after it), and beside them
///   `arrivals_departures_by_time` and `connections_by_time`, the same rows, on which
///   `departure_time >= t0 - day_start AND departure_time < t1 - day_start` reads the window `[t0, t1)`
///   of the whole network from those indexes;
/// - `stops_names` rebuilt with names folded by `StopNames.folded(_:)`, which also turns `ø` `æ` `ß` `ł`
///   `đ` `œ` into their base letters (`hjorundholen` finds `Hjørundhølen`).
///
/// **Frozen** like the versions before, but for the views: they have no rows, and a later version that
/// changes them drops and creates them again from the current definition.
enum SchemaV7 {
    /// The identifier of the migration in `grdb_migrations`.
    static let identifier = "v7"

    /// The views' dialect in SQLite: local times from `feed_utc_offsets`, the next stop by a subquery.
    static let dialect = TimetableViews.Dialect(
        name: { $0 }, orderedJoin: "CROSS JOIN",
        localText: { instant, alias in localText(instant, feed: "\(alias).feed") },
        zoneJoin: { _ in "" },
        nextStop: { table in
            """
            CROSS JOIN \(table) b ON b.feed = a.feed AND b.trip_id = a.trip_id AND b.stop_sequence = (
                SELECT min(c.stop_sequence) FROM \(table) c WHERE c.trip_id = a.trip_id AND c.feed = a.feed AND c.stop_sequence > a.stop_sequence)
            """
        },
        nullSmallint: "NULL", idType: "TEXT")

    /// The local ISO 8601 text of the Unix time `instant` (an SQL expression) in the time zone of the feed
    /// `feed` (an SQL expression), `2025-03-30T01:30:00+01:00`: as version 4 wrote it, with the offset
    /// looked up once instead of four times (most of a window's cost was these look-ups).
    static func localText(_ instant: String, feed: String) -> String {
        func text(offset: String) -> String {
            """
            strftime('%Y-%m-%dT%H:%M:%S', \(instant) + \(offset), 'unixepoch') || CASE WHEN \(offset) < 0 THEN '-' ELSE '+' END \
            || printf('%02d:%02d', abs(\(offset)) / 3600, abs(\(offset)) % 3600 / 60)
            """
        }
        let lookup = """
            (SELECT \(text(offset: "o.utc_offset")) FROM feed_utc_offsets o WHERE o.feed = \(feed) AND o.since <= \(instant) \
            ORDER BY o.since DESC LIMIT 1)
            """
        return "CASE WHEN \(instant) IS NOT NULL THEN coalesce(\(lookup), \(text(offset: "0"))) END"
    }

    /// Adds the index, the table (filled for every feed) and the new views to a version 6 store.
    static func migrate(_ db: Database) throws {
        try db.execute(sql: TimetableViews.frequencyDeparturesTable(dialect))
        try db.execute(sql: TimetableViews.frequencyDeparturesIndex(dialect))
        for index in GTFSSchema.postLoadIndexes where index.name == "stop_times_departure" { try db.execute(sql: index.sql) }
        // The parts that gained a table or a rule: the runs' departures, and the name index with names
        // folded beyond unicode61's diacritics (`ø` as `o`).
        for feed in try Int64.fetchAll(db, sql: "SELECT feed FROM feeds ORDER BY feed") {
            _ = try Timetable.update(db, feed: feed, changed: [.frequencies, .stops])
        }
        try recreateViews(db)
        try db.execute(sql: "UPDATE gtfs_meta SET value = 7 WHERE key = 'schema_version'")
    }

    /// Drops the timetable's views and creates them as ``TimetableViews`` defines them.
    static func recreateViews(_ db: Database) throws {
        for name in TimetableViews.names.reversed() { try db.execute(sql: "DROP VIEW IF EXISTS \(name)") }
        for statement in TimetableViews.createStatements(dialect, create: "CREATE VIEW") { try db.execute(sql: statement) }
    }
}
