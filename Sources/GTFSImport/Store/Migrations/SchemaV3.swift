import GRDB

/// Version 3 of the store's schema: group digests, so an incremental import skips unchanged trips, and
/// partial indexes on the rarely used references of `stop_times`.
///
/// **Frozen** like ``SchemaV1`` and ``SchemaV2``: a later change is a new migration.
///
/// One new table, `feed_groups`: per feed, table and group (the value of the first key column of a table
/// whose key has several columns: a trip of `stop_times`, a shape of `shapes`, a service of
/// `calendar_dates`), the number of rows and a 128-bit digest of their values (two INTEGER halves; NULL
/// when the group cannot be skipped: its rows were not together in the file, or the store refused one).
/// An incremental import compares each group of the new file with it and stages and compares row by row
/// only the groups that differ. A version 2 store gets the table empty, and the next import of each feed
/// fills it.
///
/// Three partial indexes cover the `stop_times` columns that refer to flexible-service tables
/// (`location_group_id`, `pickup_booking_rule_id`, `drop_off_booking_rule_id`) where they are not NULL.
/// Most feeds leave these columns empty, so the indexes stay empty and cost nothing while loading, and
/// the reference checks read them instead of scanning every stop time (0.6–0.8 s each on 6 M rows).
/// They are kept during loads, unlike the indexes of ``GTFSSchema/postLoadIndexes``.
///
/// `feed_tables` gains `content_crc32`: the CRC-32 a zip archive declared for the file the rows came
/// from. A later zip whose entry declares another CRC-32 holds other content, which an incremental
/// import then parses without hashing it first.
enum SchemaV3 {
    /// The identifier of the migration in `grdb_migrations`.
    static let identifier = "v3"

    /// Adds `feed_groups` to a version 2 store.
    static func migrate(_ db: Database) throws {
        try db.execute(sql: feedGroups)
        for statement in partialIndexes { try db.execute(sql: statement) }
        try db.execute(sql: "ALTER TABLE feed_tables ADD COLUMN content_crc32 INTEGER")
        try db.execute(sql: "UPDATE gtfs_meta SET value = 3 WHERE key = 'schema_version'")
    }

    static let feedGroups = """
        CREATE TABLE feed_groups (
            feed INTEGER NOT NULL,
            table_name TEXT NOT NULL,
            group_key TEXT NOT NULL,
            digest_a INTEGER,
            digest_b INTEGER,
            rows INTEGER NOT NULL,
            PRIMARY KEY (feed, table_name, group_key)
        ) WITHOUT ROWID
        """

    static let partialIndexes = [
        "CREATE INDEX stop_times_location_group ON stop_times (location_group_id, feed) WHERE location_group_id IS NOT NULL",
        """
        CREATE INDEX stop_times_pickup_booking_rule ON stop_times (pickup_booking_rule_id, feed)
        WHERE pickup_booking_rule_id IS NOT NULL
        """,
        """
        CREATE INDEX stop_times_drop_off_booking_rule ON stop_times (drop_off_booking_rule_id, feed)
        WHERE drop_off_booking_rule_id IS NOT NULL
        """,
    ]
}
