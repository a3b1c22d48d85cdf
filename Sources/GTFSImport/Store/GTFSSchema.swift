import Foundation
import GRDB
public import GTFS

/// The SQLite schema of a GTFS store: its migrations, its tables and views, and the indexes built after a load.
///
/// One table per file of the reference, named like the file (`stop_times`), with the GTFS field names as
/// columns and real types: times as INTEGER seconds (`25:03:00` is 90180), dates as INTEGER `YYYYMMDD`,
/// enums as INTEGER codes, booleans 0/1, coordinates REAL, colors TEXT `RRGGBB`, and currency amounts as
/// TEXT holding the exact decimal (`2.50`). Views named `…_readable` show times as `HH:MM:SS` and dates as
/// `YYYY-MM-DD` for the `sqlite3` shell.
///
/// ```swift
/// let tables = GTFSSchema.tableNames     // ["agency", "stops", …]
/// ```
public enum GTFSSchema {
    /// The schema version this build writes, also stored in `gtfs_meta` under `schema_version`.
    public static let version = 9

    /// The value of `PRAGMA application_id` in every GTFS store (the ASCII bytes `GTFS`).
    public static let applicationID: Int32 = SchemaV1.applicationID

    /// The migrations, in order: `v1` creates the schema, `v2` adds the `feed` column to every table and
    /// the `feeds`, `feed_tables` and `imports` tables (a version 1 store's rows become feed 1, `default`),
    /// `v3` adds `feed_groups` (the group digests of incremental imports), `feed_tables.content_crc32` and
    /// partial indexes on `stop_times`' flexible-service references (see ``SchemaV3``), `v4` the timetable
    /// tables and views: service days, the instants times count from, frequency runs, stop indexes,
    /// `arrivals_departures` and `connections` (see ``SchemaV4``), `v5` numbers the rows of the name index
    /// in the order a search wants (see ``SchemaV5``), `v6` adds
    /// `feed_references`, the outcome of each reference's last check (see ``SchemaV6``), `v7` the index and
    /// views of network-wide time windows (see ``SchemaV7``), `v8` `feed_checks`, the checks of feeds
    /// fetched from URLs (see ``SchemaV8``), `v9` the realtime state (see ``SchemaV9``).
    /// Later versions append migrations; a database holding an identifier this list lacks was written by a
    /// newer build and is refused.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        // No foreign keys in the schema, so nothing to check after the migration.
        migrator.registerMigration(SchemaV1.identifier, foreignKeyChecks: .immediate) { db in
            try SchemaV1.create(db)
        }
        migrator.registerMigration(SchemaV2.identifier, foreignKeyChecks: .immediate) { db in
            try SchemaV2.migrate(db)
        }
        migrator.registerMigration(SchemaV3.identifier, foreignKeyChecks: .immediate) { db in
            try SchemaV3.migrate(db)
        }
        migrator.registerMigration(SchemaV4.identifier, foreignKeyChecks: .immediate) { db in
            try SchemaV4.migrate(db)
        }
        migrator.registerMigration(SchemaV5.identifier, foreignKeyChecks: .immediate) { db in
            try SchemaV5.migrate(db)
        }
        migrator.registerMigration(SchemaV6.identifier, foreignKeyChecks: .immediate) { db in
            try SchemaV6.migrate(db)
        }
        migrator.registerMigration(SchemaV7.identifier, foreignKeyChecks: .immediate) { db in
            try SchemaV7.migrate(db)
        }
        migrator.registerMigration(SchemaV8.identifier, foreignKeyChecks: .immediate) { db in
            try SchemaV8.migrate(db)
        }
        migrator.registerMigration(SchemaV9.identifier, foreignKeyChecks: .immediate) { db in
            try SchemaV9.migrate(db)
        }
        return migrator
    }()

    /// The table that holds a file's rows: the file name without `.txt` (`stop_times`).
    /// - Parameter file: the file.
    /// - Returns: the table's name.
    public static func tableName(for file: GTFSFile) -> String { file.rawValue }

    /// Every GTFS table, in `GTFSFile` order.
    public static let tableNames: [String] = GTFSFile.allCases.map(tableName(for:))

    /// The views: for the `sqlite3` shell (`…_readable`), and the timetable's (`arrivals_departures`,
    /// `connections`).
    public static let viewNames: [String] = [
        "stop_times_readable", "frequencies_readable", "timeframes_readable", "booking_rules_readable",
        "calendar_readable", "calendar_dates_readable", "feed_info_readable", "arrivals_departures", "connections",
        "arrivals_departures_by_time", "connections_by_time", "realtime_arrivals_departures",
    ]

    /// The name and `CREATE INDEX` statement of each index built after a load: the ``GTFS/LookupIndex``es.
    static let postLoadIndexes: [(name: String, table: GTFSFile, sql: String)] = LookupIndex.all.map { index in
        (index.name, index.file,
         "CREATE INDEX IF NOT EXISTS \(index.name) ON \(index.file.rawValue) \(index.definition)")
    }

    /// Builds the indexes of ``postLoadIndexes`` that do not exist yet.
    ///
    /// Call it after a load (building an index once is much faster than updating it row by row), inside
    /// the load's transaction when the load must be atomic. It lets SQLite sort with up to
    /// ``sortThreads`` helper threads (`PRAGMA threads`, left set on the connection): on
    /// the stop_times index with two cores, 5–12% faster in our measurements.
    /// - Throws: `DatabaseError` (a full disk, say).
    static func createIndexes(_ db: Database) throws {
        try db.execute(sql: "PRAGMA threads = \(sortThreads)")
        for index in postLoadIndexes {
            try db.execute(sql: index.sql)
        }
    }

    /// The helper threads SQLite may use to sort while building indexes: one per core beyond the first, at most 3.
    static var sortThreads: Int { min(3, max(0, ProcessInfo.processInfo.activeProcessorCount - 1)) }

    /// Drops the indexes of ``postLoadIndexes`` (before a bulk load). Primary keys and the unique key
    /// indexes stay: they refuse duplicate rows as they arrive.
    /// - Parameters:
    ///   - db: a connection on its writer queue.
    ///   - tables: only the indexes of these tables; all when `nil`.
    /// - Throws: `DatabaseError`.
    static func dropIndexes(_ db: Database, on tables: Set<GTFSFile>? = nil) throws {
        for index in postLoadIndexes where tables?.contains(index.table) ?? true {
            try db.execute(sql: "DROP INDEX IF EXISTS \(index.name)")
        }
    }

    /// Deletes the rows of one feed, or of every feed, from the given GTFS tables (never `gtfs_meta` or
    /// the feed catalog), as the first step of replacing a feed.
    /// - Parameters:
    ///   - db: a connection on its writer queue.
    ///   - tables: the tables to empty; all when `nil`.
    ///   - feed: the feed's number in `feeds`; every feed's rows when `nil` (SQLite then truncates the
    ///     table at once instead of deleting row by row).
    /// - Returns: the number of rows deleted from each table (SQLite counts them also when it truncates).
    /// - Throws: `DatabaseError`.
    @discardableResult
    static func deleteRows(_ db: Database, of tables: [GTFSFile]? = nil, feed: Int64? = nil) throws -> [GTFSFile: Int] {
        var deleted: [GTFSFile: Int] = [:]
        for file in tables ?? GTFSFile.allCases {
            if let feed {
                try db.execute(sql: "DELETE FROM \(tableName(for: file)) WHERE feed = ?", arguments: [feed])
            } else {
                try db.execute(sql: "DELETE FROM \(tableName(for: file))")
            }
            deleted[file] = db.changesCount
        }
        return deleted
    }
}
