import GRDB

/// Version 4 of the store's schema: the timetable as people read it, derived from the feed's tables and
/// kept current by every import (see ``Timetable``).
///
/// **Frozen** like the versions before: a later change is a new migration.
///
/// Tables, each with `feed` first:
/// - `service_days (feed, date, service_id)`: every date (`YYYYMMDD`) each service runs, from `calendar`
///   and `calendar_dates` (additions and removals).
/// - `feed_days (feed, date, day_start)`: every date some service of the feed runs, and `day_start`, the
///   Unix time of "noon minus 12 h" in the feed's time zone on that date, from which GTFS times count: an
///   event's instant is `day_start + time`, also on the days clocks change.
/// - `feed_utc_offsets (feed, since, utc_offset)`: the feed time zone's offset from UTC in seconds from
///   each Unix time `since` on, over the feed's dates, to write instants as local ISO 8601 text.
/// - `frequency_runs (feed, trip_id, run_start, shift, exact_times)`: every run of a trip of
///   `frequencies.txt` (`start_time`, then every `headway_secs` before `end_time`); its stop times are the
///   trip's, moved by `shift` seconds.
/// - `stops_rtree`: an R*Tree of the stops' coordinates (`feed`, `stop_id` as auxiliary columns), for
///   stops near a point; `stops_names`: an FTS5 index of stop names without diacritics, so `lubeck`
///   finds `Lübeck Hbf`.
///
/// Views: `arrivals_departures`, one row per stop time per service date (frequency-based trips expanded
/// into their runs), with the instants as Unix seconds and local ISO 8601 text, and whether the stop is
/// the trip's first or last (no departure leaves the last); `connections`, one row per
/// pair of consecutive stops of a trip on a service date: the input of a journey planner.
///
/// A version 3 store with feeds gets the tables empty and a note in `gtfs_meta` (`timetable_stale`) that
/// makes the next writable open fill them for every feed.
enum SchemaV4 {
    /// The identifier of the migration in `grdb_migrations`.
    static let identifier = "v4"

    /// Adds the timetable tables and views to a version 3 store.
    static func migrate(_ db: Database) throws {
        for statement in tables + views { try db.execute(sql: statement) }
        // Only a store with feeds has a timetable to derive; a new one gets it from its first import.
        try db.execute(sql: "INSERT OR REPLACE INTO gtfs_meta (key, value) SELECT 'timetable_stale', '1' WHERE EXISTS (SELECT 1 FROM feeds)")
        try db.execute(sql: "UPDATE gtfs_meta SET value = 4 WHERE key = 'schema_version'")
    }

    static let tables = [
        """
        CREATE TABLE service_days (
            feed INTEGER NOT NULL,
            date INTEGER NOT NULL,
            service_id TEXT NOT NULL,
            PRIMARY KEY (feed, date, service_id)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE feed_days (
            feed INTEGER NOT NULL,
            date INTEGER NOT NULL,
            day_start INTEGER NOT NULL,
            PRIMARY KEY (feed, date)
        ) WITHOUT ROWID
        """,
        "CREATE INDEX feed_days_start ON feed_days (feed, day_start)",
        """
        CREATE TABLE feed_utc_offsets (
            feed INTEGER NOT NULL,
            since INTEGER NOT NULL,
            utc_offset INTEGER NOT NULL,
            PRIMARY KEY (feed, since)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE frequency_runs (
            feed INTEGER NOT NULL,
            trip_id TEXT NOT NULL,
            run_start INTEGER NOT NULL,
            shift INTEGER NOT NULL,
            exact_times INTEGER NOT NULL,
            PRIMARY KEY (feed, trip_id, run_start)
        ) WITHOUT ROWID
        """,
        "CREATE VIRTUAL TABLE stops_rtree USING rtree(id, min_lat, max_lat, min_lon, max_lon, +feed INTEGER, +stop_id TEXT)",
        """
        CREATE VIRTUAL TABLE stops_names USING fts5(
            stop_name, feed UNINDEXED, stop_id UNINDEXED, tokenize = 'unicode61 remove_diacritics 2'
        )
        """,
    ]

    /// The local ISO 8601 text of the Unix time `instant` (an SQL expression) in the time zone of the feed
    /// `feed` (an SQL expression): `2025-03-30T01:30:00+01:00`.
    static func localText(_ instant: String, feed: String) -> String {
        let offset = """
            (SELECT o.utc_offset FROM feed_utc_offsets o WHERE o.feed = \(feed) AND o.since <= \(instant) \
            ORDER BY o.since DESC LIMIT 1)
            """
        return """
            CASE WHEN \(instant) IS NOT NULL THEN strftime('%Y-%m-%dT%H:%M:%S', \(instant) + ifnull(\(offset), 0), 'unixepoch') \
            || CASE WHEN ifnull(\(offset), 0) < 0 THEN '-' ELSE '+' END \
            || printf('%02d:%02d', abs(ifnull(\(offset), 0)) / 3600, abs(ifnull(\(offset), 0)) % 3600 / 60) END
            """
    }

    static let views = [
        """
        CREATE VIEW arrivals_departures AS
        SELECT
            st.feed AS feed,
            sd.date AS date,
            st.trip_id AS trip_id,
            st.stop_sequence AS stop_sequence,
            st.stop_id AS stop_id,
            fd.day_start + st.arrival_time + ifnull(fr.shift, 0) AS arrival,
            fd.day_start + st.departure_time + ifnull(fr.shift, 0) AS departure,
            \(localText("fd.day_start + st.arrival_time + ifnull(fr.shift, 0)", feed: "st.feed")) AS arrival_local,
            \(localText("fd.day_start + st.departure_time + ifnull(fr.shift, 0)", feed: "st.feed")) AS departure_local,
            t.route_id AS route_id,
            r.route_short_name AS route_short_name,
            r.route_long_name AS route_long_name,
            r.route_type AS route_type,
            ifnull(st.stop_headsign, t.trip_headsign) AS headsign,
            t.direction_id AS direction_id,
            t.service_id AS service_id,
            s.stop_name AS stop_name,
            s.parent_station AS parent_station,
            s.platform_code AS platform_code,
            st.pickup_type AS pickup_type,
            st.drop_off_type AS drop_off_type,
            NOT EXISTS (SELECT 1 FROM stop_times p WHERE p.trip_id = st.trip_id AND p.feed = st.feed AND p.stop_sequence < st.stop_sequence)
                AS is_first_stop,
            NOT EXISTS (SELECT 1 FROM stop_times n WHERE n.trip_id = st.trip_id AND n.feed = st.feed AND n.stop_sequence > st.stop_sequence)
                AS is_last_stop,
            ifnull(fr.shift, 0) AS run_shift,
            fr.exact_times AS exact_times
        FROM stop_times st
        JOIN trips t ON t.feed = st.feed AND t.trip_id = st.trip_id
        JOIN service_days sd ON sd.feed = t.feed AND sd.service_id = t.service_id
        JOIN feed_days fd ON fd.feed = sd.feed AND fd.date = sd.date
        LEFT JOIN frequency_runs fr ON fr.feed = st.feed AND fr.trip_id = st.trip_id
        LEFT JOIN routes r ON r.feed = t.feed AND r.route_id = t.route_id
        LEFT JOIN stops s ON s.feed = st.feed AND s.stop_id = st.stop_id
        WHERE fr.trip_id IS NOT NULL
            OR NOT EXISTS (SELECT 1 FROM frequencies f WHERE f.trip_id = st.trip_id AND f.feed = st.feed)
        """,
        """
        CREATE VIEW connections AS
        SELECT
            a.feed AS feed,
            sd.date AS date,
            a.trip_id AS trip_id,
            t.route_id AS route_id,
            r.route_short_name AS route_short_name,
            r.route_type AS route_type,
            ifnull(a.stop_headsign, t.trip_headsign) AS headsign,
            a.stop_id AS from_stop_id,
            a.stop_sequence AS from_stop_sequence,
            fd.day_start + a.departure_time + ifnull(fr.shift, 0) AS departure,
            \(localText("fd.day_start + a.departure_time + ifnull(fr.shift, 0)", feed: "a.feed")) AS departure_local,
            b.stop_id AS to_stop_id,
            b.stop_sequence AS to_stop_sequence,
            fd.day_start + b.arrival_time + ifnull(fr.shift, 0) AS arrival,
            \(localText("fd.day_start + b.arrival_time + ifnull(fr.shift, 0)", feed: "a.feed")) AS arrival_local,
            ifnull(fr.shift, 0) AS run_shift
        FROM stop_times a
        JOIN stop_times b ON b.feed = a.feed AND b.trip_id = a.trip_id AND b.stop_sequence = (
            SELECT min(c.stop_sequence) FROM stop_times c
            WHERE c.trip_id = a.trip_id AND c.feed = a.feed AND c.stop_sequence > a.stop_sequence)
        JOIN trips t ON t.feed = a.feed AND t.trip_id = a.trip_id
        JOIN service_days sd ON sd.feed = t.feed AND sd.service_id = t.service_id
        JOIN feed_days fd ON fd.feed = sd.feed AND fd.date = sd.date
        LEFT JOIN frequency_runs fr ON fr.feed = a.feed AND fr.trip_id = a.trip_id
        LEFT JOIN routes r ON r.feed = t.feed AND r.route_id = t.route_id
        WHERE fr.trip_id IS NOT NULL
            OR NOT EXISTS (SELECT 1 FROM frequencies f WHERE f.trip_id = a.trip_id AND f.feed = a.feed)
        """,
    ]
}
