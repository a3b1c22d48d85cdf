import GRDB
import GTFSStoreCore

/// Version 9 of the store's schema: the realtime state, what each GTFS-Realtime source of a feed said
/// last and the predictions its trip updates make, and `realtime_arrivals_departures` (see `RealtimeTables`, docs/Database.md "Realtime").
///
/// **Frozen** like the versions before: a later change is a new migration.
enum SchemaV9 {
    /// The identifier of the migration in `grdb_migrations`.
    static let identifier = "v9"

    /// Adds the realtime tables to a version 8 store.
    static func migrate(_ db: Database) throws {
        for statement in RealtimeTables.createStatements(name: { $0 }) { try db.execute(sql: statement) }
        try db.execute(sql: RealtimeTables.viewStatement(name: { $0 }, create: "CREATE VIEW", integerDate: { $0 }, dateOf: { $0 }))
        try db.execute(sql: "UPDATE gtfs_meta SET value = 9 WHERE key = 'schema_version'")
    }
}
