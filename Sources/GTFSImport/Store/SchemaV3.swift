import GRDB

/// Version 3 of the store's schema: group digests, so an incremental import skips unchanged trips.
///
/// **Frozen** like ``SchemaV1`` and ``SchemaV2``: a later change is a new migration.
///
/// One new table, `feed_groups`: per feed, table and group (the value of the first key column of a table
/// whose key has several columns: a trip of `stop_times`, a shape of `shapes`, a service of
/// `calendar_dates`), the number of rows and a 128-bit digest of their values (two INTEGER halves; NULL
/// when the group cannot be skipped: its rows were not together in the file, or the store refused one).
/// An incremental import compares each group of the new file with it and stages and compares row by row
/// only the groups that differ. Nothing else changes; a version 2 store gets the table empty, and the
/// next import of each feed fills it.
enum SchemaV3 {
    /// The identifier of the migration in `grdb_migrations`.
    static let identifier = "v3"

    /// Adds `feed_groups` to a version 2 store.
    static func migrate(_ db: Database) throws {
        try db.execute(sql: feedGroups)
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
}
