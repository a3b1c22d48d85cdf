import GRDB
import GTFS

/// A full import that replaces the only feed of a store no one else has open: the new store is built
/// aside like a first import (``NewDatabaseFile``), written once, and renamed over the old file, instead
/// of deleting and rewriting every row through the WAL, which writes each page twice.
///
/// The old file must hold exactly the imported feed (or none), in this build's schema, with nothing the
/// schema does not create, and no connection may have it open: SQLite refuses an exclusive lock while
/// one does, and the switch happens under that lock. Otherwise the import replaces the feed in place.
/// The old file's `imports` history is carried over, so the new file continues it.
enum ReplacedDatabase {
    /// What the old file holds, read under an exclusive lock (which proved no one else had it open).
    struct Probe {
        /// Its tables, indexes, views and triggers.
        let objects: Set<String>
        /// The rows each table held of the feed, as the catalog counts them.
        let rows: [GTFSFile: Int]
    }

    /// Reads the old file at `path` when a full import of `feed` may replace it; `nil` when it may not
    /// (another feed, another schema version, another connection).
    static func probe(_ path: String, feed: String) -> Probe? {
        var configuration = Configuration()
        configuration.label = "GTFSStore.replaced"
        configuration.busyMode = .immediateError
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE") }
        guard let queue = try? DatabaseQueue(path: path, configuration: configuration) else { return nil }
        defer { try? queue.close() }
        return try? queue.read { db -> Probe? in
            guard try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal",
                try Int.fetchOne(db, sql: "SELECT value FROM gtfs_meta WHERE key = 'schema_version'") == GTFSSchema.version,
                try GTFSSchema.migrator.appliedIdentifiers(db) == Set(GTFSSchema.migrator.migrations),
                try String.fetchOne(db, sql: "SELECT value FROM gtfs_meta WHERE key = 'timetable_stale'") == nil
            else { return nil }
            let feeds = try String.fetchAll(db, sql: "SELECT name FROM feeds")
            guard feeds.allSatisfy({ $0 == feed }) else { return nil }
            var rows: [GTFSFile: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT table_name, rows_stored FROM feed_tables") {
                if let file = GTFSFile(rawValue: row["table_name"]) { rows[file] = row["rows_stored"] }
            }
            return Probe(objects: try schemaObjects(db), rows: rows)
        }
    }

    /// The names of a database's tables, indexes, views and triggers, without SQLite's own.
    static func schemaObjects(_ db: Database) throws -> Set<String> {
        Set(try String.fetchAll(db, sql: "SELECT name FROM main.sqlite_master WHERE name NOT LIKE 'sqlite_%'"))
    }

    /// Why the switch could not happen: the import then runs in place.
    struct NotReplaceable: Error {}

    /// Moves the old file's `imports` history into the new store (committed, not yet at its path): the new
    /// import's rows move after the old ones, so the ids keep their order.
    /// - Throws: ``NotReplaceable`` when the old file holds what the new one lacks, or is open elsewhere.
    static func carryOver(from path: String, into newFile: NewDatabaseFile, probe: Probe) throws {
        try newFile.queue.writeWithoutTransaction { db in
            guard probe.objects.isSubset(of: try schemaObjects(db)) else { throw NotReplaceable() }
            do {
                // As in switchIn: a reader that stays open keeps the import in place, after a moment.
                try db.execute(sql: "PRAGMA busy_timeout = 1000")
                try db.execute(sql: "ATTACH DATABASE ? AS gtfs_replaced", arguments: [path])
            } catch {
                throw NotReplaceable()
            }
            defer { _ = try? db.execute(sql: "DETACH DATABASE gtfs_replaced") }
            do {
                try db.inTransaction {
                    let offset = try Int64.fetchOne(db, sql: "SELECT ifnull(max(import_id), 0) FROM gtfs_replaced.imports") ?? 0
                    try db.execute(sql: "UPDATE main.imports SET import_id = import_id + ?", arguments: [offset])
                    try db.execute(sql: "UPDATE main.feeds SET import_id = import_id + ?", arguments: [offset])
                    try db.execute(sql: "INSERT INTO main.imports SELECT * FROM gtfs_replaced.imports")
                    return .commit
                }
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
                throw NotReplaceable()
            }
        }
    }

    /// Renames the new store over the old file while holding the old file's exclusive lock, so that no
    /// connection reads it half replaced. The old file's WAL is emptied into it and removed first.
    /// - Throws: ``NotReplaceable`` when another connection has the old file open (nothing changed then);
    ///   ``ImportError`` when a step of the switch fails.
    static func switchIn(_ newFile: NewDatabaseFile, at path: String) throws {
        var configuration = Configuration()
        configuration.label = "GTFSStore.replaced"
        // A reader that is just closing gets a moment; one that stays open keeps the import in place.
        configuration.busyMode = .timeout(1)
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE") }
        let old: DatabaseQueue
        do {
            old = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw NotReplaceable()
        }
        defer { try? old.close() }
        try old.writeWithoutTransaction { db in
            // Out of WAL mode: needs every other connection closed, checkpoints the WAL into the file and
            // deletes it, and keeps the exclusive lock until the connection closes.
            guard (try? String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")) == "delete" else { throw NotReplaceable() }
            try newFile.install(replacing: true)
        }
    }
}
