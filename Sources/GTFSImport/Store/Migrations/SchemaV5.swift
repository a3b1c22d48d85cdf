import GRDB

/// Version 5 of the store's schema: `stops_names` keeps prefix indexes, and its rows are numbered so
/// that the index's own order is the order a name search wants.
///
/// **Frozen** like the versions before: a later change is a new migration.
///
/// A row's `rowid` in `stops_names` holds, from the highest bits down, the feed, the kind of stop
/// (stations first, then stops without a parent station, then the rest), the name's length and a running
/// number (see ``StopIndex``). A search then reads its matches in `rowid` order within the feed's range and
/// stops after the few it returns, where scoring every match (bm25) cost milliseconds for a word that
/// thousands of names share.
///
/// Prefix indexes for the first one to eight characters of each word let a search for a word's
/// beginning (`b`, `berl`) read the rows that match in order, where without them the index merges the
/// full lists of every word that begins so before the first row (milliseconds for a town's name).
///
/// A version 4 store's index is made again, empty, and one with feeds gets the note `timetable_stale` in
/// `gtfs_meta` that makes the next writable open rebuild it (with the other timetable tables) for every
/// feed.
enum SchemaV5 {
    /// The identifier of the migration in `grdb_migrations`.
    static let identifier = "v5"

    /// Makes `stops_names` of a version 4 store again, empty, to be filled in the new order.
    static func migrate(_ db: Database) throws {
        try db.execute(sql: "DROP TABLE stops_names")
        try db.execute(sql: stopsNames)
        try db.execute(sql: "INSERT OR REPLACE INTO gtfs_meta (key, value) SELECT 'timetable_stale', '1' WHERE EXISTS (SELECT 1 FROM feeds)")
        try db.execute(sql: "UPDATE gtfs_meta SET value = 5 WHERE key = 'schema_version'")
    }

    static let stopsNames = """
        CREATE VIRTUAL TABLE stops_names USING fts5(
            stop_name, feed UNINDEXED, stop_id UNINDEXED, tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3 4 5 6 7 8'
        )
        """
}
