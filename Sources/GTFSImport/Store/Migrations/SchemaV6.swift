import GRDB

/// Version 6 of the store's schema: `feed_references` keeps, per feed and reference, how many rows the
/// last reference check found without their target, and `feed_tables.stored_hash` the hash of each zip
/// entry's stored (compressed) bytes, and `changes` the changes of the imports that keep them
/// (`ImportOptions.keepsChanges`).
///
/// **Frozen** like the versions before: a later change is a new migration.
///
/// An incremental import that changed only the referring table of a reference whose last check was clean
/// then checks only the values of the rows it inserted or updated: the other rows' values resolved before,
/// and their targets did not change (see ``ReferenceCheck``). An entry whose stored bytes hash the same as
/// last time holds the same content without being inflated (see ``ImportPlan``). Both are filled by each
/// feed's next import.
enum SchemaV6 {
    /// The identifier of the migration in `grdb_migrations`.
    static let identifier = "v6"

    /// Adds `feed_references`, `feed_tables.stored_hash` and `changes` to a version 5 store.
    static func migrate(_ db: Database) throws {
        try db.execute(sql: feedReferences)
        try db.execute(sql: "ALTER TABLE feed_tables ADD COLUMN stored_hash TEXT")
        try db.execute(sql: changes)
        try db.execute(sql: "UPDATE gtfs_meta SET value = 6 WHERE key = 'schema_version'")
    }

    /// The changes imports kept (`ImportOptions.keepsChanges`), by import and order.
    static let changes = """
        CREATE TABLE changes (
            import_id INTEGER NOT NULL,
            seq INTEGER NOT NULL,
            feed_name TEXT NOT NULL,
            table_name TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('insert', 'update', 'delete', 'replace')),
            key TEXT,
            columns TEXT,
            PRIMARY KEY (import_id, seq)
        ) WITHOUT ROWID
        """

    static let feedReferences = """
        CREATE TABLE feed_references (
            feed INTEGER NOT NULL,
            table_name TEXT NOT NULL,
            column_name TEXT NOT NULL,
            missing_rows INTEGER NOT NULL,
            PRIMARY KEY (feed, table_name, column_name)
        ) WITHOUT ROWID
        """
}
