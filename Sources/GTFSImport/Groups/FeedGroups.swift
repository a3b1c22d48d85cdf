import GRDB
import GTFS

/// The `feed_groups` table (see ``SchemaV3``): per feed, table and group, the rows' count and digest.
enum FeedGroups {
    /// Adds a group, or marks it as seen twice (rows not together in the file: digest NULL, rows summed).
    static let upsertSQL = """
        INSERT INTO main.feed_groups (feed, table_name, group_key, digest_a, digest_b, rows) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (feed, table_name, group_key) DO UPDATE SET digest_a = NULL, digest_b = NULL, rows = rows + excluded.rows
        """

    /// The stored digest and count of one group.
    static let lookupSQL = "SELECT digest_a, digest_b, rows FROM main.feed_groups WHERE feed = ? AND table_name = ? AND group_key = ?"

    /// Forgets the groups of `tables` of one feed.
    /// - Throws: `DatabaseError`.
    static func delete(_ db: Database, feed: Int64, tables: some Sequence<GTFSFile>) throws {
        for file in tables where GroupedTables.column(for: file) != nil {
            try db.execute(
                sql: "DELETE FROM main.feed_groups WHERE feed = ? AND table_name = ?", arguments: [feed, GTFSSchema.tableName(for: file)])
        }
    }

    /// Whether the store holds groups of `file`'s table for `feed`.
    /// - Throws: `DatabaseError`.
    static func exist(_ db: Database, feed: Int64, file: GTFSFile) throws -> Bool {
        try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM main.feed_groups WHERE feed = ? AND table_name = ?)",
            arguments: [feed, GTFSSchema.tableName(for: file)]) ?? false
    }
}
