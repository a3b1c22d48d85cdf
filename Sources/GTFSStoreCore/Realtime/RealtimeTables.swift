/// The realtime state's tables, the same text in both stores (docs/Database.md, "Realtime"): what each
/// source of a feed said last, entity by entity, and the predictions its trip updates make of the
/// timetable's calls. Every row belongs to a feed (`feeds.feed`), a source (the file or URL the message
/// came from, shown without secrets) and an entity of its last message.
///
/// **Frozen** as a store's migration runs it: a later change is a new migration.
package enum RealtimeTables {
    /// A table: its name, its columns (name and type) and its key.
    package struct Table: Sendable {
        package let name: String
        package let columns: [(name: String, type: String)]
        package let key: [String]

        /// The column names, in order.
        package var columnNames: [String] { columns.map(\.name) }
    }

    private static let owner: [(String, String)] = [("feed", "integer NOT NULL"), ("source", "text NOT NULL"), ("entity_id", "text NOT NULL")]
    private static let ownerKey = ["feed", "source", "entity_id"]

    /// Each source's last message: its digest (an unchanged message is recognised by it), header and entities,
    /// and the largest and smallest delay its predictions hold (which widen a realtime board's window).
    package static let sources = Table(
        name: "realtime_sources",
        columns: [
            ("feed", "integer NOT NULL"), ("source", "text NOT NULL"), ("message_digest", "text NOT NULL"), ("version", "text NOT NULL"),
            ("incrementality", "text NOT NULL"), ("header_timestamp", "bigint"), ("applied_at", "bigint NOT NULL"), ("entities", "integer NOT NULL"),
            ("latest_delay", "integer"), ("earliest_delay", "integer"),
        ],
        key: ["feed", "source"])

    /// Each entity of a source's message with the digest of its content.
    package static let entities = Table(
        name: "realtime_entities", columns: owner + [("kind", "text NOT NULL"), ("digest", "text NOT NULL")], key: ownerKey)

    /// A trip update: its trip descriptor, vehicle, timestamp, and the trip instance it matched.
    package static let tripUpdates = Table(
        name: "realtime_trip_updates",
        columns: owner + tripColumns + [
            ("vehicle_id", "text"), ("vehicle_label", "text"), ("timestamp", "bigint"), ("delay", "integer"),
            ("new_trip_id", "text"), ("new_start_date", "text"), ("new_start_time", "text"),
            ("matched_trip_id", "text"), ("service_date", "integer"), ("run_shift", "integer"), ("unmatched_updates", "integer NOT NULL"),
            ("note", "text"),
        ],
        key: ownerKey)

    /// A trip update's stop time updates, in the order given.
    package static let stopTimeUpdates = Table(
        name: "realtime_stop_time_updates",
        columns: owner + [
            ("position", "integer NOT NULL"), ("stop_sequence", "integer"), ("stop_id", "text"),
            ("arrival_delay", "integer"), ("arrival_time", "bigint"), ("arrival_uncertainty", "integer"),
            ("departure_delay", "integer"), ("departure_time", "bigint"), ("departure_uncertainty", "integer"),
            ("schedule_relationship", "text NOT NULL"),
        ],
        key: ownerKey + ["position"])

    /// The calls of matched trip instances as a trip update predicts them (``RealtimePropagation``), and
    /// the calls of added trips: what realtime boards join. Each source's predictions are its own; where two
    /// sources predict one call, a board takes the first source's (by name) of those fresh enough.
    package static let predictions = Table(
        name: "realtime_predictions",
        columns: [
            ("feed", "integer NOT NULL"), ("trip_id", "text NOT NULL"), ("date", "integer NOT NULL"), ("run_shift", "integer NOT NULL"),
            ("stop_sequence", "integer NOT NULL"), ("stop_id", "text NOT NULL"), ("status", "text NOT NULL"),
            ("arrival", "bigint"), ("departure", "bigint"), ("arrival_delay", "integer"), ("departure_delay", "integer"),
            ("route_id", "text"), ("timestamp", "bigint"), ("source", "text NOT NULL"), ("entity_id", "text NOT NULL"),
            ("run_offset", "integer NOT NULL"),
        ],
        key: ["feed", "trip_id", "date", "run_shift", "stop_sequence", "source"])

    /// A vehicle position.
    package static let vehicles = Table(
        name: "realtime_vehicles",
        columns: owner + tripColumns + [
            ("vehicle_id", "text"), ("vehicle_label", "text"), ("license_plate", "text"),
            ("latitude", "double precision"), ("longitude", "double precision"), ("bearing", "double precision"), ("speed", "double precision"),
            ("current_stop_sequence", "integer"), ("stop_id", "text"), ("current_status", "text"), ("timestamp", "bigint"),
            ("congestion_level", "text"), ("occupancy_status", "text"),
        ],
        key: ownerKey)

    /// An alert: cause, effect and severity.
    package static let alerts = Table(
        name: "realtime_alerts", columns: owner + [("cause", "text"), ("effect", "text"), ("severity", "text")], key: ownerKey)

    /// An alert's active periods (open at an end where NULL).
    package static let alertPeriods = Table(
        name: "realtime_alert_periods", columns: owner + [("position", "integer NOT NULL"), ("start_time", "bigint"), ("end_time", "bigint")],
        key: ownerKey + ["position"])

    /// What an alert informs: each selector's fields.
    package static let alertEntities = Table(
        name: "realtime_alert_entities",
        columns: owner + [
            ("position", "integer NOT NULL"), ("agency_id", "text"), ("route_id", "text"), ("route_type", "integer"), ("direction_id", "integer"),
            ("trip_id", "text"), ("stop_id", "text"),
        ],
        key: ownerKey + ["position"])

    /// An alert's texts: `field` is `url`, `header` or `description`; one row per translation.
    package static let alertTexts = Table(
        name: "realtime_alert_texts",
        columns: owner + [("field", "text NOT NULL"), ("position", "integer NOT NULL"), ("language", "text"), ("text", "text NOT NULL")],
        key: ownerKey + ["field", "position"])

    /// A trip descriptor's columns.
    private static let tripColumns: [(String, String)] = [
        ("trip_id", "text"), ("route_id", "text"), ("direction_id", "integer"), ("start_time", "text"), ("start_date", "text"),
        ("schedule_relationship", "text"),
    ]

    /// Every table, in creation order; the ones an entity's rows are in come after ``sources``.
    package static let all = [sources, entities, tripUpdates, stopTimeUpdates, predictions, vehicles, alerts, alertPeriods, alertEntities, alertTexts]

    /// The tables whose rows belong to an entity, deleted with it.
    package static let entityTables = [entities, tripUpdates, stopTimeUpdates, predictions, vehicles, alerts, alertPeriods, alertEntities, alertTexts]

    /// `CREATE TABLE` and `CREATE INDEX` statements of every table.
    /// - Parameters:
    ///   - name: a table's name qualified by the store's schema where it has one.
    ///   - text: the store's type of text compared byte by byte, as its ids are (`text COLLATE "C"` in
    ///     PostgreSQL: a join of `trip_id` to `stop_times` of another collation could not use the key).
    package static func createStatements(name: (String) -> String, text: String = "text") -> [String] {
        all.map { table in
            let columns = table.columns.map { column in
                "\(column.name) " + (column.type.hasPrefix("text") ? text + column.type.dropFirst(4) : column.type)
            }.joined(separator: ", ")
            return "CREATE TABLE IF NOT EXISTS \(name(table.name)) (\(columns), PRIMARY KEY (\(table.key.joined(separator: ", "))))"
        } + [
            "CREATE INDEX IF NOT EXISTS realtime_predictions_owner ON \(name("realtime_predictions")) (feed, source, entity_id)",
            "CREATE INDEX IF NOT EXISTS realtime_predictions_stop ON \(name("realtime_predictions")) (feed, stop_id, status)",
            "CREATE INDEX IF NOT EXISTS realtime_vehicles_position ON \(name("realtime_vehicles")) (feed, latitude)",
        ]
    }

    /// `realtime_arrivals_departures`: every call of `arrivals_departures` with what the predictions say of
    /// it (one row per source predicting it; `status` `scheduled` and NULLs where none does), then the calls
    /// of added trips. `predicted_at` is the prediction's age's instant (its update's timestamp, else its
    /// source's last header's, else when that message was applied): a reader keeps the rows it finds fresh.
    /// - Parameters:
    ///   - name: a table's or view's name qualified by the store's schema where it has one.
    ///   - create: `CREATE VIEW` or `CREATE OR REPLACE VIEW`.
    ///   - integerDate: `YYYYMMDD` as an integer of the views' `date` column (an SQL expression).
    ///   - dateOf: the views' `date` of an integer `YYYYMMDD` (an SQL expression).
    package static func viewStatement(
        name: (String) -> String, create: String, integerDate: (String) -> String, dateOf: (String) -> String
    ) -> String {
        let age = "coalesce(rp.timestamp, rs.header_timestamp, rs.applied_at)"
        return """
            \(create) \(name("realtime_arrivals_departures")) AS
            SELECT ad.feed AS feed, ad.date AS date, ad.trip_id AS trip_id, ad.stop_sequence AS stop_sequence, ad.stop_id AS stop_id,
                ad.stop_name AS stop_name, ad.route_id AS route_id, ad.route_short_name AS route_short_name, ad.headsign AS headsign,
                ad.arrival AS arrival, ad.departure AS departure, coalesce(rp.status, 'scheduled') AS status,
                rp.arrival AS predicted_arrival, rp.departure AS predicted_departure, rp.arrival_delay AS arrival_delay,
                rp.departure_delay AS departure_delay, \(age) AS predicted_at, rp.source AS source
            FROM \(name("arrivals_departures")) ad
            LEFT JOIN \(name("realtime_predictions")) rp ON rp.feed = ad.feed AND rp.trip_id = ad.trip_id
                AND rp.date = \(integerDate("ad.date")) AND rp.run_shift = ad.run_shift AND rp.stop_sequence = ad.stop_sequence
                AND rp.status <> 'added'
            LEFT JOIN \(name("realtime_sources")) rs ON rs.feed = rp.feed AND rs.source = rp.source
            UNION ALL
            SELECT rp.feed, \(dateOf("rp.date")), rp.trip_id, rp.stop_sequence, rp.stop_id, s.stop_name, rp.route_id, r.route_short_name, NULL,
                NULL, NULL, rp.status, rp.arrival, rp.departure, NULL, NULL, \(age), rp.source
            FROM \(name("realtime_predictions")) rp
            JOIN \(name("realtime_sources")) rs ON rs.feed = rp.feed AND rs.source = rp.source
            LEFT JOIN \(name("stops")) s ON s.feed = rp.feed AND s.stop_id = rp.stop_id
            LEFT JOIN \(name("routes")) r ON r.feed = rp.feed AND r.route_id = rp.route_id
            WHERE rp.status = 'added'
            """
    }

    /// Deletes every realtime row of a feed (the feed's number is parameter 1): when it is removed.
    package static func deleteFeedStatements(name: (String) -> String, placeholder: String) -> [String] {
        all.map { "DELETE FROM \(name($0.name)) WHERE feed = \(placeholder)" }
    }
}
