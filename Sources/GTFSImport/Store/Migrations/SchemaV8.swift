import GRDB
import GTFSStoreCore

/// Version 8 of the store's schema: `feed_checks`, the last check of each feed fetched from a URL (its
/// validators, the digest of its downloaded bytes, when and how the check ended; see `FeedCheck`).
///
/// **Frozen** like the versions before: a later change is a new migration.
enum SchemaV8 {
    /// The identifier of the migration in `grdb_migrations`.
    static let identifier = "v8"

    /// Adds `feed_checks` to a version 7 store.
    static func migrate(_ db: Database) throws {
        try db.execute(sql: FeedCheckTable.createStatement(table: "feed_checks"))
        try db.execute(sql: "UPDATE gtfs_meta SET value = 8 WHERE key = 'schema_version'")
    }
}
