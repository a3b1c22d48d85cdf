import Foundation
import GRDB

/// Version 2 of the store's schema: several feeds in one database.
///
/// **Frozen** like ``SchemaV1``: a later change is a new migration.
///
/// Every GTFS table gains a first column `feed` (INTEGER, the feed's number in `feeds`), and every key
/// ends with it, so stop `1` of feed A and stop `1` of feed B both exist. Ending (not starting) the keys
/// with `feed` keeps them useful to queries that do not name a feed, as most queries on a one-feed store
/// do: `WHERE trip_id = ?` still finds stop_times by their primary key. The tables are otherwise
/// those of version 1, in the same order with the same columns and types (the `CREATE TABLE` texts below
/// were derived once from ``SchemaV1/tables`` and are kept literally). The `…_readable` views show `feed`
/// too. Three new tables describe the feeds:
/// - `feeds`: one row per feed (its number, its unique name, and its current version: the content hash,
///   the source, when it was imported, the import that made it);
/// - `feed_tables`: per feed and table, the SHA-256 of the file the rows came from (NULL when unknown,
///   e.g. standard input) and its counts, which let a later import skip tables whose file is unchanged;
/// - `imports`: every import that changed something or failed: feed name, source, content hash, start and
///   end (ISO 8601), kind (`full` or `incremental`), outcome (`completed`, `failed`, `cancelled`),
///   inserted / updated / deleted / unchanged / rejected rows, and a message.
///
/// A version 1 database is migrated in place: its rows become feed 1, named `default`.
enum SchemaV2 {
    /// The identifier of the migration in `grdb_migrations`.
    static let identifier = "v2"

    /// Turns a version 1 store (possibly holding rows) into a version 2 store.
    static func migrate(_ db: Database) throws {
        for view in SchemaV1.viewNames {
            try db.execute(sql: "DROP VIEW IF EXISTS \(view)")
        }
        let names = SchemaV1.tableNames
        for name in names {
            try db.execute(sql: "ALTER TABLE \(name) RENAME TO \(name)_v1")
        }
        for statement in tables {
            try db.execute(sql: statement)
        }
        var hasRows = false
        for name in names {
            try db.execute(sql: "INSERT INTO \(name) SELECT 1, * FROM \(name)_v1")
            hasRows = hasRows || db.changesCount > 0
            // Drops the version 1 indexes with the table.
            try db.execute(sql: "DROP TABLE \(name)_v1")
        }
        for statement in keyIndexes + views + feedTables {
            try db.execute(sql: statement)
        }
        if hasRows {
            try db.execute(sql: "INSERT INTO feeds (feed, name) VALUES (1, 'default')")
        }
        try db.execute(sql: "UPDATE gtfs_meta SET value = 2 WHERE key = 'schema_version'")
    }

    /// One CREATE TABLE per file of the reference, in ``GTFS/GTFSFile`` order: version 1's with `feed` first.
    static let tables: [String] = [
        """
        CREATE TABLE agency (
            feed INTEGER NOT NULL,
            agency_id TEXT,
            agency_name TEXT NOT NULL,
            agency_url TEXT NOT NULL,
            agency_timezone TEXT NOT NULL,
            agency_lang TEXT,
            agency_phone TEXT,
            agency_fare_url TEXT,
            agency_email TEXT,
            cemv_support INTEGER NOT NULL
        )
        """,
        """
        CREATE TABLE stops (
            feed INTEGER NOT NULL,
            stop_id TEXT NOT NULL,
            stop_code TEXT,
            stop_name TEXT,
            tts_stop_name TEXT,
            stop_desc TEXT,
            stop_lat REAL,
            stop_lon REAL,
            zone_id TEXT,
            stop_url TEXT,
            location_type INTEGER NOT NULL,
            parent_station TEXT,
            stop_timezone TEXT,
            wheelchair_boarding INTEGER NOT NULL,
            level_id TEXT,
            platform_code TEXT,
            stop_access INTEGER,
            PRIMARY KEY (stop_id, feed)
        )
        """,
        """
        CREATE TABLE routes (
            feed INTEGER NOT NULL,
            route_id TEXT NOT NULL,
            agency_id TEXT,
            route_short_name TEXT,
            route_long_name TEXT,
            route_desc TEXT,
            route_type INTEGER NOT NULL,
            route_url TEXT,
            route_color TEXT NOT NULL,
            route_text_color TEXT NOT NULL,
            route_sort_order INTEGER,
            continuous_pickup INTEGER NOT NULL,
            continuous_drop_off INTEGER NOT NULL,
            network_id TEXT,
            cemv_support INTEGER,
            PRIMARY KEY (route_id, feed)
        )
        """,
        """
        CREATE TABLE trips (
            feed INTEGER NOT NULL,
            route_id TEXT NOT NULL,
            service_id TEXT NOT NULL,
            trip_id TEXT NOT NULL,
            trip_headsign TEXT,
            trip_short_name TEXT,
            direction_id INTEGER,
            block_id TEXT,
            shape_id TEXT,
            wheelchair_accessible INTEGER NOT NULL,
            bikes_allowed INTEGER NOT NULL,
            cars_allowed INTEGER NOT NULL,
            safe_duration_factor REAL,
            safe_duration_offset REAL,
            PRIMARY KEY (trip_id, feed)
        )
        """,
        """
        CREATE TABLE stop_times (
            feed INTEGER NOT NULL,
            trip_id TEXT NOT NULL,
            arrival_time INTEGER,
            departure_time INTEGER,
            stop_id TEXT,
            location_group_id TEXT,
            location_id TEXT,
            stop_sequence INTEGER NOT NULL,
            stop_headsign TEXT,
            start_pickup_drop_off_window INTEGER,
            end_pickup_drop_off_window INTEGER,
            pickup_type INTEGER NOT NULL,
            drop_off_type INTEGER NOT NULL,
            continuous_pickup INTEGER,
            continuous_drop_off INTEGER,
            shape_dist_traveled REAL,
            timepoint INTEGER NOT NULL,
            pickup_booking_rule_id TEXT,
            drop_off_booking_rule_id TEXT,
            PRIMARY KEY (trip_id, stop_sequence, feed)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE calendar (
            feed INTEGER NOT NULL,
            service_id TEXT NOT NULL,
            monday INTEGER NOT NULL,
            tuesday INTEGER NOT NULL,
            wednesday INTEGER NOT NULL,
            thursday INTEGER NOT NULL,
            friday INTEGER NOT NULL,
            saturday INTEGER NOT NULL,
            sunday INTEGER NOT NULL,
            start_date INTEGER NOT NULL,
            end_date INTEGER NOT NULL,
            PRIMARY KEY (service_id, feed)
        )
        """,
        """
        CREATE TABLE calendar_dates (
            feed INTEGER NOT NULL,
            service_id TEXT NOT NULL,
            date INTEGER NOT NULL,
            exception_type INTEGER NOT NULL,
            PRIMARY KEY (service_id, date, feed)
        )
        """,
        """
        CREATE TABLE fare_attributes (
            feed INTEGER NOT NULL,
            fare_id TEXT NOT NULL,
            price TEXT NOT NULL,
            currency_type TEXT NOT NULL,
            payment_method INTEGER NOT NULL,
            transfers INTEGER,
            agency_id TEXT,
            transfer_duration INTEGER,
            PRIMARY KEY (fare_id, feed)
        )
        """,
        """
        CREATE TABLE fare_rules (
            feed INTEGER NOT NULL,
            fare_id TEXT NOT NULL,
            route_id TEXT,
            origin_id TEXT,
            destination_id TEXT,
            contains_id TEXT
        )
        """,
        """
        CREATE TABLE timeframes (
            feed INTEGER NOT NULL,
            timeframe_group_id TEXT NOT NULL,
            start_time INTEGER NOT NULL,
            end_time INTEGER NOT NULL,
            service_id TEXT NOT NULL,
            PRIMARY KEY (timeframe_group_id, start_time, end_time, service_id, feed)
        )
        """,
        """
        CREATE TABLE rider_categories (
            feed INTEGER NOT NULL,
            rider_category_id TEXT NOT NULL,
            rider_category_name TEXT NOT NULL,
            is_default_fare_category INTEGER NOT NULL,
            eligibility_url TEXT,
            PRIMARY KEY (rider_category_id, feed)
        )
        """,
        """
        CREATE TABLE fare_media (
            feed INTEGER NOT NULL,
            fare_media_id TEXT NOT NULL,
            fare_media_name TEXT,
            fare_media_type INTEGER NOT NULL,
            PRIMARY KEY (fare_media_id, feed)
        )
        """,
        """
        CREATE TABLE fare_products (
            feed INTEGER NOT NULL,
            fare_product_id TEXT NOT NULL,
            fare_product_name TEXT,
            rider_category_id TEXT,
            fare_media_id TEXT,
            amount TEXT NOT NULL,
            currency TEXT NOT NULL
        )
        """,
        """
        CREATE TABLE fare_leg_rules (
            feed INTEGER NOT NULL,
            leg_group_id TEXT,
            network_id TEXT,
            from_area_id TEXT,
            to_area_id TEXT,
            from_timeframe_group_id TEXT,
            to_timeframe_group_id TEXT,
            fare_product_id TEXT NOT NULL,
            rule_priority INTEGER
        )
        """,
        """
        CREATE TABLE fare_leg_join_rules (
            feed INTEGER NOT NULL,
            from_network_id TEXT NOT NULL,
            to_network_id TEXT NOT NULL,
            from_stop_id TEXT,
            to_stop_id TEXT
        )
        """,
        """
        CREATE TABLE fare_transfer_rules (
            feed INTEGER NOT NULL,
            from_leg_group_id TEXT,
            to_leg_group_id TEXT,
            transfer_count INTEGER,
            duration_limit INTEGER,
            duration_limit_type INTEGER,
            fare_transfer_type INTEGER NOT NULL,
            fare_product_id TEXT
        )
        """,
        """
        CREATE TABLE areas (
            feed INTEGER NOT NULL,
            area_id TEXT NOT NULL,
            area_name TEXT,
            PRIMARY KEY (area_id, feed)
        )
        """,
        """
        CREATE TABLE stop_areas (
            feed INTEGER NOT NULL,
            area_id TEXT NOT NULL,
            stop_id TEXT NOT NULL,
            PRIMARY KEY (area_id, stop_id, feed)
        )
        """,
        """
        CREATE TABLE networks (
            feed INTEGER NOT NULL,
            network_id TEXT NOT NULL,
            network_name TEXT,
            PRIMARY KEY (network_id, feed)
        )
        """,
        """
        CREATE TABLE route_networks (
            feed INTEGER NOT NULL,
            network_id TEXT NOT NULL,
            route_id TEXT NOT NULL,
            PRIMARY KEY (route_id, feed)
        )
        """,
        """
        CREATE TABLE shapes (
            feed INTEGER NOT NULL,
            shape_id TEXT NOT NULL,
            shape_pt_lat REAL NOT NULL,
            shape_pt_lon REAL NOT NULL,
            shape_pt_sequence INTEGER NOT NULL,
            shape_dist_traveled REAL,
            PRIMARY KEY (shape_id, shape_pt_sequence, feed)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE frequencies (
            feed INTEGER NOT NULL,
            trip_id TEXT NOT NULL,
            start_time INTEGER NOT NULL,
            end_time INTEGER NOT NULL,
            headway_secs INTEGER NOT NULL,
            exact_times INTEGER NOT NULL,
            PRIMARY KEY (trip_id, start_time, feed)
        )
        """,
        """
        CREATE TABLE transfers (
            feed INTEGER NOT NULL,
            from_stop_id TEXT,
            to_stop_id TEXT,
            from_route_id TEXT,
            to_route_id TEXT,
            from_trip_id TEXT,
            to_trip_id TEXT,
            transfer_type INTEGER NOT NULL,
            min_transfer_time INTEGER
        )
        """,
        """
        CREATE TABLE pathways (
            feed INTEGER NOT NULL,
            pathway_id TEXT NOT NULL,
            from_stop_id TEXT NOT NULL,
            to_stop_id TEXT NOT NULL,
            pathway_mode INTEGER NOT NULL,
            is_bidirectional INTEGER NOT NULL,
            length REAL,
            traversal_time INTEGER,
            stair_count INTEGER,
            max_slope REAL NOT NULL,
            min_width REAL,
            signposted_as TEXT,
            reversed_signposted_as TEXT,
            PRIMARY KEY (pathway_id, feed)
        )
        """,
        """
        CREATE TABLE levels (
            feed INTEGER NOT NULL,
            level_id TEXT NOT NULL,
            level_index REAL NOT NULL,
            level_name TEXT,
            PRIMARY KEY (level_id, feed)
        )
        """,
        """
        CREATE TABLE location_groups (
            feed INTEGER NOT NULL,
            location_group_id TEXT NOT NULL,
            location_group_name TEXT,
            PRIMARY KEY (location_group_id, feed)
        )
        """,
        """
        CREATE TABLE location_group_stops (
            feed INTEGER NOT NULL,
            location_group_id TEXT NOT NULL,
            stop_id TEXT NOT NULL,
            PRIMARY KEY (location_group_id, stop_id, feed)
        )
        """,
        """
        CREATE TABLE booking_rules (
            feed INTEGER NOT NULL,
            booking_rule_id TEXT NOT NULL,
            booking_type INTEGER NOT NULL,
            prior_notice_duration_min INTEGER,
            prior_notice_duration_max INTEGER,
            prior_notice_last_day INTEGER,
            prior_notice_last_time INTEGER,
            prior_notice_start_day INTEGER,
            prior_notice_start_time INTEGER,
            prior_notice_service_id TEXT,
            message TEXT,
            pickup_message TEXT,
            drop_off_message TEXT,
            phone_number TEXT,
            info_url TEXT,
            booking_url TEXT,
            PRIMARY KEY (booking_rule_id, feed)
        )
        """,
        """
        CREATE TABLE translations (
            feed INTEGER NOT NULL,
            table_name TEXT NOT NULL,
            field_name TEXT NOT NULL,
            language TEXT NOT NULL,
            translation TEXT NOT NULL,
            record_id TEXT,
            record_sub_id TEXT,
            field_value TEXT
        )
        """,
        """
        CREATE TABLE feed_info (
            feed INTEGER NOT NULL,
            feed_publisher_name TEXT NOT NULL,
            feed_publisher_url TEXT NOT NULL,
            feed_lang TEXT NOT NULL,
            default_lang TEXT,
            feed_start_date INTEGER,
            feed_end_date INTEGER,
            feed_version TEXT,
            feed_contact_email TEXT,
            feed_contact_url TEXT
        )
        """,
        """
        CREATE TABLE attributions (
            feed INTEGER NOT NULL,
            attribution_id TEXT,
            agency_id TEXT,
            route_id TEXT,
            trip_id TEXT,
            organization_name TEXT NOT NULL,
            is_producer INTEGER NOT NULL,
            is_operator INTEGER NOT NULL,
            is_authority INTEGER NOT NULL,
            attribution_url TEXT,
            attribution_email TEXT,
            attribution_phone TEXT
        )
        """,
    ]

    /// The keys of version 1 with `feed` at the end (see ``SchemaV1/keyIndexes``).
    static let keyIndexes: [String] = [
        "CREATE UNIQUE INDEX agency_key ON agency (ifnull(agency_id, ''), feed)",
        """
        CREATE UNIQUE INDEX fare_rules_key ON fare_rules (
            fare_id, ifnull(route_id, ''), ifnull(origin_id, ''), ifnull(destination_id, ''), ifnull(contains_id, ''), feed
        )
        """,
        """
        CREATE UNIQUE INDEX fare_products_key ON fare_products (
            fare_product_id, ifnull(rider_category_id, ''), ifnull(fare_media_id, ''), feed
        )
        """,
        """
        CREATE UNIQUE INDEX fare_leg_rules_key ON fare_leg_rules (
            ifnull(network_id, ''), ifnull(from_area_id, ''), ifnull(to_area_id, ''),
            ifnull(from_timeframe_group_id, ''), ifnull(to_timeframe_group_id, ''), fare_product_id, feed
        )
        """,
        """
        CREATE UNIQUE INDEX fare_leg_join_rules_key ON fare_leg_join_rules (
            from_network_id, to_network_id, ifnull(from_stop_id, ''), ifnull(to_stop_id, ''), feed
        )
        """,
        """
        CREATE UNIQUE INDEX fare_transfer_rules_key ON fare_transfer_rules (
            ifnull(from_leg_group_id, ''), ifnull(to_leg_group_id, ''), ifnull(fare_product_id, ''),
            ifnull(transfer_count, ''), ifnull(duration_limit, ''), feed
        )
        """,
        """
        CREATE UNIQUE INDEX transfers_key ON transfers (
            ifnull(from_stop_id, ''), ifnull(to_stop_id, ''), ifnull(from_trip_id, ''), ifnull(to_trip_id, ''),
            ifnull(from_route_id, ''), ifnull(to_route_id, ''), feed
        )
        """,
        """
        CREATE UNIQUE INDEX translations_key ON translations (
            table_name, field_name, language, ifnull(record_id, ''), ifnull(record_sub_id, ''), ifnull(field_value, ''), feed
        )
        """,
        "CREATE UNIQUE INDEX attributions_key ON attributions (attribution_id, feed)",
    ]

    /// Views for people using the `sqlite3` shell: the same columns, times and dates written out.
    static let views: [String] = [
        """
        CREATE VIEW stop_times_readable AS SELECT
            feed, trip_id, \(SchemaV1.time("arrival_time")), \(SchemaV1.time("departure_time")), stop_id, location_group_id,
            location_id, stop_sequence, stop_headsign, \(SchemaV1.time("start_pickup_drop_off_window")),
            \(SchemaV1.time("end_pickup_drop_off_window")), pickup_type, drop_off_type, continuous_pickup, continuous_drop_off,
            shape_dist_traveled, timepoint, pickup_booking_rule_id, drop_off_booking_rule_id
        FROM stop_times
        """,
        """
        CREATE VIEW frequencies_readable AS SELECT
            feed, trip_id, \(SchemaV1.time("start_time")), \(SchemaV1.time("end_time")), headway_secs, exact_times
        FROM frequencies
        """,
        """
        CREATE VIEW timeframes_readable AS SELECT
            feed, timeframe_group_id, \(SchemaV1.time("start_time")), \(SchemaV1.time("end_time")), service_id
        FROM timeframes
        """,
        """
        CREATE VIEW booking_rules_readable AS SELECT
            feed, booking_rule_id, booking_type, prior_notice_duration_min, prior_notice_duration_max, prior_notice_last_day,
            \(SchemaV1.time("prior_notice_last_time")), prior_notice_start_day, \(SchemaV1.time("prior_notice_start_time")),
            prior_notice_service_id, message, pickup_message, drop_off_message, phone_number, info_url, booking_url
        FROM booking_rules
        """,
        """
        CREATE VIEW calendar_readable AS SELECT
            feed, service_id, monday, tuesday, wednesday, thursday, friday, saturday, sunday,
            \(SchemaV1.date("start_date")), \(SchemaV1.date("end_date"))
        FROM calendar
        """,
        """
        CREATE VIEW calendar_dates_readable AS SELECT
            feed, service_id, \(SchemaV1.date("date")), exception_type
        FROM calendar_dates
        """,
        """
        CREATE VIEW feed_info_readable AS SELECT
            feed, feed_publisher_name, feed_publisher_url, feed_lang, default_lang, \(SchemaV1.date("feed_start_date")),
            \(SchemaV1.date("feed_end_date")), feed_version, feed_contact_email, feed_contact_url
        FROM feed_info
        """,
    ]

    /// The feeds, their tables' content hashes, and the log of imports.
    static let feedTables: [String] = [
        """
        CREATE TABLE feeds (
            feed INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            content_hash TEXT,
            source TEXT,
            imported_at TEXT,
            import_id INTEGER
        )
        """,
        """
        CREATE TABLE feed_tables (
            feed INTEGER NOT NULL,
            table_name TEXT NOT NULL,
            content_hash TEXT,
            rows_read INTEGER NOT NULL,
            rows_stored INTEGER NOT NULL,
            rows_rejected INTEGER NOT NULL,
            PRIMARY KEY (table_name, feed)
        )
        """,
        """
        CREATE TABLE imports (
            import_id INTEGER PRIMARY KEY,
            feed_name TEXT NOT NULL,
            source TEXT NOT NULL,
            content_hash TEXT,
            started_at TEXT NOT NULL,
            ended_at TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('full', 'incremental')),
            outcome TEXT NOT NULL CHECK (outcome IN ('completed', 'failed', 'cancelled')),
            rows_inserted INTEGER NOT NULL DEFAULT 0,
            rows_updated INTEGER NOT NULL DEFAULT 0,
            rows_deleted INTEGER NOT NULL DEFAULT 0,
            rows_unchanged INTEGER NOT NULL DEFAULT 0,
            rows_rejected INTEGER NOT NULL DEFAULT 0,
            message TEXT
        )
        """,
    ]
}
