import GRDB

/// Version 1 of the store's schema, as the `v1` migration creates it.
///
/// **Frozen.** This text is the history of every database written with schema version 1: never edit it.
/// A schema change is a new migration (`v2`, …) registered after `v1` in ``GTFSSchema/migrator``.
///
/// Conventions:
/// - one table per file of the reference, named like the file without `.txt`; column names are the GTFS
///   field names, in reference order;
/// - times (`arrival_time`, `start_time`, …) are INTEGER seconds since the start of the service day
///   (`25:03:00` is 90180); dates are INTEGER `YYYYMMDD` (20251231); enums are their INTEGER codes;
///   booleans INTEGER 0/1; coordinates and other decimals REAL; colors TEXT `RRGGBB`;
/// - currency amounts (`fare_attributes.price`, `fare_products.amount`) are TEXT holding the exact
///   decimal as written, normalised (`2.50`, `-1.2`), so no binary rounding creeps in:
///   `CAST(amount AS REAL)` for arithmetic, `CurrencyAmount(text)` to get the exact value back;
/// - NOT NULL where the record's property is not optional (empty cells that have a meaning are stored
///   as that meaning, e.g. `location_type` 0); one exception: `fare_leg_rules.rule_priority` is NULL when
///   the file has no `rule_priority` column, because that changes what empty ids mean;
/// - primary keys per the reference; where a key has optional parts, a UNIQUE index over
///   `ifnull(column, '')` instead, so that two empty values are equal as GTFS means them;
/// - no FOREIGN KEY clauses: feeds often refer to missing rows, and the import reports those instead of
///   refusing them;
/// - `stop_times` and `shapes`, the two large tables, are WITHOUT ROWID tables clustered by their key:
///   measured on 2 M VBB-like stop_times, 27% faster to load and 11% smaller than a rowid table whose
///   primary key needs a second B-tree.
enum SchemaV1 {
    /// The identifier of the migration in `grdb_migrations`.
    static let identifier = "v1"

    /// The value of `PRAGMA application_id` in a GTFS store: the ASCII bytes `GTFS`.
    static let applicationID: Int32 = 0x4754_4653

    /// Creates the tables, the key indexes, the views and `gtfs_meta`.
    static func create(_ db: Database) throws {
        for statement in tables + keyIndexes + views + meta {
            try db.execute(sql: statement)
        }
    }

    /// One CREATE TABLE per file of the reference, in ``GTFS/GTFSFile`` order.
    static let tables: [String] = [
        """
        CREATE TABLE agency (
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
            stop_id TEXT NOT NULL PRIMARY KEY,
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
            stop_access INTEGER
        )
        """,
        """
        CREATE TABLE routes (
            route_id TEXT NOT NULL PRIMARY KEY,
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
            cemv_support INTEGER
        )
        """,
        """
        CREATE TABLE trips (
            route_id TEXT NOT NULL,
            service_id TEXT NOT NULL,
            trip_id TEXT NOT NULL PRIMARY KEY,
            trip_headsign TEXT,
            trip_short_name TEXT,
            direction_id INTEGER,
            block_id TEXT,
            shape_id TEXT,
            wheelchair_accessible INTEGER NOT NULL,
            bikes_allowed INTEGER NOT NULL,
            cars_allowed INTEGER NOT NULL,
            safe_duration_factor REAL,
            safe_duration_offset REAL
        )
        """,
        """
        CREATE TABLE stop_times (
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
            PRIMARY KEY (trip_id, stop_sequence)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE calendar (
            service_id TEXT NOT NULL PRIMARY KEY,
            monday INTEGER NOT NULL,
            tuesday INTEGER NOT NULL,
            wednesday INTEGER NOT NULL,
            thursday INTEGER NOT NULL,
            friday INTEGER NOT NULL,
            saturday INTEGER NOT NULL,
            sunday INTEGER NOT NULL,
            start_date INTEGER NOT NULL,
            end_date INTEGER NOT NULL
        )
        """,
        """
        CREATE TABLE calendar_dates (
            service_id TEXT NOT NULL,
            date INTEGER NOT NULL,
            exception_type INTEGER NOT NULL,
            PRIMARY KEY (service_id, date)
        )
        """,
        """
        CREATE TABLE fare_attributes (
            fare_id TEXT NOT NULL PRIMARY KEY,
            price TEXT NOT NULL,
            currency_type TEXT NOT NULL,
            payment_method INTEGER NOT NULL,
            transfers INTEGER,
            agency_id TEXT,
            transfer_duration INTEGER
        )
        """,
        """
        CREATE TABLE fare_rules (
            fare_id TEXT NOT NULL,
            route_id TEXT,
            origin_id TEXT,
            destination_id TEXT,
            contains_id TEXT
        )
        """,
        """
        CREATE TABLE timeframes (
            timeframe_group_id TEXT NOT NULL,
            start_time INTEGER NOT NULL,
            end_time INTEGER NOT NULL,
            service_id TEXT NOT NULL,
            PRIMARY KEY (timeframe_group_id, start_time, end_time, service_id)
        )
        """,
        """
        CREATE TABLE rider_categories (
            rider_category_id TEXT NOT NULL PRIMARY KEY,
            rider_category_name TEXT NOT NULL,
            is_default_fare_category INTEGER NOT NULL,
            eligibility_url TEXT
        )
        """,
        """
        CREATE TABLE fare_media (
            fare_media_id TEXT NOT NULL PRIMARY KEY,
            fare_media_name TEXT,
            fare_media_type INTEGER NOT NULL
        )
        """,
        """
        CREATE TABLE fare_products (
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
            from_network_id TEXT NOT NULL,
            to_network_id TEXT NOT NULL,
            from_stop_id TEXT,
            to_stop_id TEXT
        )
        """,
        """
        CREATE TABLE fare_transfer_rules (
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
            area_id TEXT NOT NULL PRIMARY KEY,
            area_name TEXT
        )
        """,
        """
        CREATE TABLE stop_areas (
            area_id TEXT NOT NULL,
            stop_id TEXT NOT NULL,
            PRIMARY KEY (area_id, stop_id)
        )
        """,
        """
        CREATE TABLE networks (
            network_id TEXT NOT NULL PRIMARY KEY,
            network_name TEXT
        )
        """,
        """
        CREATE TABLE route_networks (
            network_id TEXT NOT NULL,
            route_id TEXT NOT NULL PRIMARY KEY
        )
        """,
        """
        CREATE TABLE shapes (
            shape_id TEXT NOT NULL,
            shape_pt_lat REAL NOT NULL,
            shape_pt_lon REAL NOT NULL,
            shape_pt_sequence INTEGER NOT NULL,
            shape_dist_traveled REAL,
            PRIMARY KEY (shape_id, shape_pt_sequence)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE frequencies (
            trip_id TEXT NOT NULL,
            start_time INTEGER NOT NULL,
            end_time INTEGER NOT NULL,
            headway_secs INTEGER NOT NULL,
            exact_times INTEGER NOT NULL,
            PRIMARY KEY (trip_id, start_time)
        )
        """,
        """
        CREATE TABLE transfers (
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
            pathway_id TEXT NOT NULL PRIMARY KEY,
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
            reversed_signposted_as TEXT
        )
        """,
        """
        CREATE TABLE levels (
            level_id TEXT NOT NULL PRIMARY KEY,
            level_index REAL NOT NULL,
            level_name TEXT
        )
        """,
        """
        CREATE TABLE location_groups (
            location_group_id TEXT NOT NULL PRIMARY KEY,
            location_group_name TEXT
        )
        """,
        """
        CREATE TABLE location_group_stops (
            location_group_id TEXT NOT NULL,
            stop_id TEXT NOT NULL,
            PRIMARY KEY (location_group_id, stop_id)
        )
        """,
        """
        CREATE TABLE booking_rules (
            booking_rule_id TEXT NOT NULL PRIMARY KEY,
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
            booking_url TEXT
        )
        """,
        """
        CREATE TABLE translations (
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

    /// The keys of the tables whose reference key has optional parts. They exist from the start, so
    /// duplicates are refused as rows arrive, like primary keys. `attribution_id` is optional and keys
    /// only the rows that have one (NULLs are distinct); `agency_id` may be empty for one agency only.
    static let keyIndexes: [String] = [
        "CREATE UNIQUE INDEX agency_key ON agency (ifnull(agency_id, ''))",
        """
        CREATE UNIQUE INDEX fare_rules_key ON fare_rules (
            fare_id, ifnull(route_id, ''), ifnull(origin_id, ''), ifnull(destination_id, ''), ifnull(contains_id, '')
        )
        """,
        """
        CREATE UNIQUE INDEX fare_products_key ON fare_products (
            fare_product_id, ifnull(rider_category_id, ''), ifnull(fare_media_id, '')
        )
        """,
        """
        CREATE UNIQUE INDEX fare_leg_rules_key ON fare_leg_rules (
            ifnull(network_id, ''), ifnull(from_area_id, ''), ifnull(to_area_id, ''),
            ifnull(from_timeframe_group_id, ''), ifnull(to_timeframe_group_id, ''), fare_product_id
        )
        """,
        """
        CREATE UNIQUE INDEX fare_leg_join_rules_key ON fare_leg_join_rules (
            from_network_id, to_network_id, ifnull(from_stop_id, ''), ifnull(to_stop_id, '')
        )
        """,
        """
        CREATE UNIQUE INDEX fare_transfer_rules_key ON fare_transfer_rules (
            ifnull(from_leg_group_id, ''), ifnull(to_leg_group_id, ''), ifnull(fare_product_id, ''),
            ifnull(transfer_count, ''), ifnull(duration_limit, '')
        )
        """,
        """
        CREATE UNIQUE INDEX transfers_key ON transfers (
            ifnull(from_stop_id, ''), ifnull(to_stop_id, ''), ifnull(from_trip_id, ''), ifnull(to_trip_id, ''),
            ifnull(from_route_id, ''), ifnull(to_route_id, '')
        )
        """,
        """
        CREATE UNIQUE INDEX translations_key ON translations (
            table_name, field_name, language, ifnull(record_id, ''), ifnull(record_sub_id, ''), ifnull(field_value, '')
        )
        """,
        "CREATE UNIQUE INDEX attributions_key ON attributions (attribution_id)",
    ]

    /// `HH:MM:SS` (hours may pass 24) for an INTEGER seconds column, NULL stays NULL.
    static func time(_ column: String) -> String {
        "CASE WHEN \(column) IS NULL THEN NULL ELSE printf('%02d:%02d:%02d', \(column) / 3600, \(column) / 60 % 60, \(column) % 60) END AS \(column)"
    }

    /// `YYYY-MM-DD` for an INTEGER `YYYYMMDD` column, NULL stays NULL.
    static func date(_ column: String) -> String {
        "CASE WHEN \(column) IS NULL THEN NULL ELSE printf('%04d-%02d-%02d', \(column) / 10000, \(column) / 100 % 100, \(column) % 100) END AS \(column)"
    }

    /// The names of the tables and views created above (the third word of each statement).
    static var tableNames: [String] { tables.map(objectName) }
    static var viewNames: [String] { views.map(objectName) }
    private static func objectName(_ sql: String) -> String {
        let words = sql.split(whereSeparator: \.isWhitespace)
        return words.count > 2 ? String(words[2]) : ""
    }

    /// Views for people using the `sqlite3` shell: the same columns, times and dates written out.
    static let views: [String] = [
        """
        CREATE VIEW stop_times_readable AS SELECT
            trip_id, \(time("arrival_time")), \(time("departure_time")), stop_id, location_group_id, location_id,
            stop_sequence, stop_headsign, \(time("start_pickup_drop_off_window")), \(time("end_pickup_drop_off_window")),
            pickup_type, drop_off_type, continuous_pickup, continuous_drop_off, shape_dist_traveled, timepoint,
            pickup_booking_rule_id, drop_off_booking_rule_id
        FROM stop_times
        """,
        """
        CREATE VIEW frequencies_readable AS SELECT
            trip_id, \(time("start_time")), \(time("end_time")), headway_secs, exact_times
        FROM frequencies
        """,
        """
        CREATE VIEW timeframes_readable AS SELECT
            timeframe_group_id, \(time("start_time")), \(time("end_time")), service_id
        FROM timeframes
        """,
        """
        CREATE VIEW booking_rules_readable AS SELECT
            booking_rule_id, booking_type, prior_notice_duration_min, prior_notice_duration_max, prior_notice_last_day,
            \(time("prior_notice_last_time")), prior_notice_start_day, \(time("prior_notice_start_time")),
            prior_notice_service_id, message, pickup_message, drop_off_message, phone_number, info_url, booking_url
        FROM booking_rules
        """,
        """
        CREATE VIEW calendar_readable AS SELECT
            service_id, monday, tuesday, wednesday, thursday, friday, saturday, sunday,
            \(date("start_date")), \(date("end_date"))
        FROM calendar
        """,
        """
        CREATE VIEW calendar_dates_readable AS SELECT
            service_id, \(date("date")), exception_type
        FROM calendar_dates
        """,
        """
        CREATE VIEW feed_info_readable AS SELECT
            feed_publisher_name, feed_publisher_url, feed_lang, default_lang, \(date("feed_start_date")),
            \(date("feed_end_date")), feed_version, feed_contact_email, feed_contact_url
        FROM feed_info
        """,
    ]

    /// `gtfs_meta` (key/value facts about the store) and the application id.
    static let meta: [String] = [
        "CREATE TABLE gtfs_meta (key TEXT NOT NULL PRIMARY KEY, value)",
        "INSERT INTO gtfs_meta (key, value) VALUES ('schema_version', 1)",
        "PRAGMA application_id = \(applicationID)",
    ]
}
