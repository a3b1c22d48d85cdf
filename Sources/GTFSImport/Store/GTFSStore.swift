import CSQLiteConfig
import Foundation
public import GRDB
import GRDBSQLite
public import GTFS

/// A GTFS feed in one SQLite file: opened or created with a GRDB `DatabasePool` in WAL mode, so readers
/// (an app's list view, the `sqlite3` shell) read consistent snapshots while an import writes.
///
/// Opening runs the schema's migrations (see ``GTFSSchema``). A file written by a newer schema, or a file
/// that is not a GTFS store (not SQLite, or SQLite holding something else), is refused with a
/// `StoreError` and left untouched.
///
/// The `.sqlite` file stands alone after every import and removal: they end by moving the WAL into it.
/// Closing a connection never does (the last one to close would lock readers out meanwhile).
///
/// ```swift
/// let store = try GTFSStore(path: "vbb.sqlite")
/// let stops = try store.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM stops") }
/// ```
public final class GTFSStore: Sendable {
    /// The database file.
    public let path: String
    /// The connections: one writer, concurrent readers.
    public let pool: DatabasePool

    /// The page size of a new store. Measured on 2 M VBB-like stop_times in WAL mode: 8 KiB pages load 25%
    /// faster than SQLite's default 4 KiB and build the stop index 13% faster; 16 and 64 KiB are no better.
    static let pageSize = 8192

    /// The configuration used when none is given: a busy timeout of 5 seconds, so that a write waits for
    /// another process's write (the `sqlite3` shell, say) instead of failing at once, and a WAL file that
    /// shrinks back to 64 MiB after a checkpoint instead of keeping the size of the largest import.
    /// - Returns: a new configuration; change it and pass it to ``init(path:configuration:)``.
    public static func defaultConfiguration() -> Configuration {
        var configuration = Configuration()
        configuration.label = "GTFSStore"
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_size_limit = 67108864")
        }
        return configuration
    }

    /// Opens the store at `path`, creating it (and its schema) when the file does not exist or is empty,
    /// and migrating it when it was written by an older schema.
    ///
    /// - Parameters:
    ///   - path: the database file.
    ///   - configuration: GRDB options; ``defaultConfiguration()`` when omitted.
    /// - Throws: `StoreError.newerSchema(found:supported:)` or `StoreError.notAGTFSDatabase(path:reason:)`
    ///   (the file is then left as it was); a `DatabaseError` when SQLite fails (a directory that cannot be
    ///   written, a corrupt file).
    public init(path: String, configuration: Configuration = GTFSStore.defaultConfiguration()) throws {
        self.path = path
        var configuration = configuration
        configuration.prepareDatabase { db in
            // Takes effect only when the file is created (before the pool turns WAL on); a no-op later.
            try db.execute(sql: "PRAGMA page_size = \(GTFSStore.pageSize)")
            // Closing never locks readers out: the writes checkpoint instead (see `checkpoint(_:)`).
            CSQLiteConfig_disableCheckpointOnClose(db.sqliteConnection)
        }
        pool = try Self.openPool(path: path, configuration: configuration)
        if configuration.readonly {
            // Nothing is written: a read-only store must already have this build's schema.
            let missing = try pool.read { db in
                let applied = try GTFSSchema.migrator.appliedIdentifiers(db)
                return GTFSSchema.migrator.migrations.filter { !applied.contains($0) }
            }
            if !missing.isEmpty { throw StoreError.needsMigration(path: path, missing: missing) }
        } else {
            try GTFSSchema.migrator.migrate(pool)
            // Looked at first: a write would wait for an import that holds the database.
            if try pool.read({ db in try Timetable.isStale(db) }) {
                try pool.write { db in try Timetable.rebuildIfStale(db) }
            }
        }
    }

    /// Opens an existing store for reading only: nothing is written, not even the marker transaction a
    /// writable open makes when the WAL is empty. Where reading the WAL index would need a write that
    /// cannot happen (read-only media, a folder the user cannot write, a full disk), the file is opened
    /// as immutable: it must not change while it is read, and it must hold every committed row (as every
    /// import and removal leave it: its WAL empty).
    ///
    /// - Parameter path: the database file, which must exist and have this build's schema.
    /// - Throws: as ``init(path:configuration:)``, and `StoreError.needsMigration(path:missing:)`.
    public convenience init(readingFrom path: String) throws {
        var configuration = GTFSStore.defaultConfiguration()
        configuration.readonly = true
        try self.init(path: path, configuration: configuration)
    }

    /// The number of rows of every GTFS table, from one consistent snapshot.
    /// - Returns: the row count of every table, over all feeds.
    /// - Throws: `DatabaseError`.
    public func rowCounts() throws -> [GTFSFile: Int] {
        try read { db in
            var counts: [GTFSFile: Int] = [:]
            for file in GTFSFile.allCases {
                counts[file] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(GTFSSchema.tableName(for: file))") ?? 0
            }
            return counts
        }
    }

    /// Moves what the WAL holds into the database file and empties the WAL, so that the `.sqlite` file
    /// alone holds every committed row (a copy of it is complete). Every import and removal ends with it.
    ///
    /// Emptying the WAL waits, at most the busy timeout (or `patience`), until no reader reads from it; a
    /// reader still in a transaction then keeps the WAL until a later write. Closing a connection never
    /// checkpoints: the last connection to close would lock the database exclusively to do it, and a
    /// reader opening it meanwhile without a busy timeout (the `sqlite3` shell) would get "database is locked".
    ///
    /// - Parameters:
    ///   - truncating: `false` copies what it can and leaves the WAL as it is (a passive checkpoint, which
    ///     waits for no one and which readers do not see as a change of the database).
    ///   - patience: the longest wait for readers, when shorter than the busy timeout (after a failure,
    ///     whose caller is waiting for the error).
    static func checkpoint(_ db: Database, truncating: Bool = true, patience: Duration? = nil) {
        var restore: Int32?
        if truncating, let patience, case .timeout(let timeout) = db.configuration.busyMode {
            let milliseconds = patience.components.seconds * 1000 + patience.components.attoseconds / 1_000_000_000_000_000
            restore = Int32(clamping: Int64(timeout * 1000))
            sqlite3_busy_timeout(db.sqliteConnection, Int32(clamping: min(milliseconds, Int64(timeout * 1000))))
        }
        // Best effort: the data is committed either way, and a WAL left in place is read by every connection.
        _ = try? db.execute(sql: "PRAGMA wal_checkpoint(\(truncating ? "TRUNCATE" : "PASSIVE"))")
        if let restore { sqlite3_busy_timeout(db.sqliteConnection, restore) }
    }

    /// Closes the store's connections; later accesses throw. Call it before moving or deleting the file
    /// while the program goes on (a store also closes when released).
    ///
    /// The file needs no closing to be complete: every import and removal ends by moving the WAL into the
    /// `.sqlite` file, so a copy of that file alone (into an app bundle, onto another machine) holds every
    /// row.
    /// - Throws: `DatabaseError` when a statement is still running.
    public func close() throws {
        try pool.close()
    }
}
