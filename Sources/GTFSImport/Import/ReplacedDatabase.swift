import GRDB
import GTFS

import Platform

/// A full import that replaces the only feed of a store no one else has open: the new store is built
/// aside like a first import (``NewDatabaseFile``), written once, and renamed over the old file, instead
/// of deleting and rewriting every row through the WAL, which writes each page twice.
///
/// The old file must hold exactly the imported feed (or none), in this build's schema, with nothing the
/// schema does not create, one name (no hard link), an owner the import can give the new file, and no
/// connection that has it open: SQLite refuses an exclusive lock while one does, and the switch happens
/// under that lock. Otherwise the import replaces the feed in place. The new file keeps the feed's
/// number, the old file's owner and permissions, and its `imports` history.
enum ReplacedDatabase {
    /// What the old file holds, read under an exclusive lock (which proved no one else had it open).
    struct Probe {
        /// The rows each table held of the feed, as the catalog counts them.
        let rows: [GTFSFile: Int]
        /// The feed's number, kept by the new file; `nil` when the file held no feed.
        let feedID: Int64?
        /// The file's owner, group and permissions, given to the new file.
        let status: stat
    }

    /// Reads the old file at `path` when a full import of `feed` may replace it; `nil` when it may not
    /// (another feed, another schema version, objects of the user's, another connection, another owner).
    static func probe(_ path: String, feed: String) -> Probe? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_nlink == 1, geteuid() == 0 || status.st_uid == geteuid() else { return nil }
        guard let queue = try? exclusiveConnection(path, busyMode: .immediateError) else { return nil }
        defer { try? queue.close() }
        return try? queue.read { db -> Probe? in
            guard try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal",
                try Int.fetchOne(db, sql: "SELECT value FROM gtfs_meta WHERE key = 'schema_version'") == GTFSSchema.version,
                try GTFSSchema.migrator.appliedIdentifiers(db) == Set(GTFSSchema.migrator.migrations),
                try String.fetchOne(db, sql: "SELECT value FROM gtfs_meta WHERE key = 'timetable_stale'") == nil,
                try schemaObjects(db).isSubset(of: storeObjects)
            else { return nil }
            let feeds = try Row.fetchAll(db, sql: "SELECT feed, name FROM feeds")
            guard feeds.allSatisfy({ $0["name"] == feed }) else { return nil }
            var rows: [GTFSFile: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT table_name, rows_stored FROM feed_tables") {
                if let file = GTFSFile(rawValue: row["table_name"]) { rows[file] = row["rows_stored"] }
            }
            return Probe(rows: rows, feedID: feeds.first?["feed"], status: status)
        }
    }

    /// A connection to the old file in exclusive locking mode: its first read takes the file's exclusive
    /// lock, which SQLite grants only when no other connection has the file open.
    private static func exclusiveConnection(_ path: String, busyMode: Database.BusyMode) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.label = "GTFSStore.replaced"
        configuration.busyMode = busyMode
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE") }
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    /// The names of a database's tables, indexes, views and triggers, without SQLite's own.
    static func schemaObjects(_ db: Database) throws -> Set<String> {
        Set(try String.fetchAll(db, sql: "SELECT name FROM main.sqlite_master WHERE name NOT LIKE 'sqlite_%'"))
    }

    /// What a store of this build holds: its schema with the indexes built after a load.
    static let storeObjects: Set<String> = {
        guard let queue = try? DatabaseQueue(), (try? GTFSSchema.migrator.migrate(queue)) != nil else { return [] }
        return (try? queue.write { db in
            try GTFSSchema.createIndexes(db)
            return try schemaObjects(db)
        }) ?? []
    }()

    /// Gives the new store the feed's number, before the import creates the feed.
    static func keepFeedNumber(_ probe: Probe, feed: String, in newFile: NewDatabaseFile) throws {
        guard let id = probe.feedID else { return }
        try newFile.queue.write { db in try db.execute(sql: "INSERT INTO feeds (feed, name) VALUES (?, ?)", arguments: [id, feed]) }
    }

    /// Why the switch could not happen: the import then runs in place.
    struct NotReplaceable: Error {}

    /// Moves the old file's `imports` history (and the changes it kept) into the new store (committed, not yet at its path): the new
    /// import's rows move after the old ones, so the ids keep their order.
    /// - Throws: ``NotReplaceable`` when another connection has the old file open.
    /// - Returns: how much the new import's id grew.
    @discardableResult
    static func carryOver(from path: String, into newFile: NewDatabaseFile) throws -> Int64 {
        try newFile.queue.writeWithoutTransaction { db in
            do {
                // As in switchIn: a reader that stays open keeps the import in place, after a moment.
                try db.execute(sql: "PRAGMA busy_timeout = 1000")
                try db.execute(sql: "ATTACH DATABASE ? AS gtfs_replaced", arguments: [path])
            } catch {
                throw NotReplaceable()
            }
            defer { _ = try? db.execute(sql: "DETACH DATABASE gtfs_replaced") }
            do {
                var offset: Int64 = 0
                try db.inTransaction {
                    offset = try Int64.fetchOne(db, sql: "SELECT ifnull(max(import_id), 0) FROM gtfs_replaced.imports") ?? 0
                    try db.execute(sql: "UPDATE main.imports SET import_id = import_id + ?", arguments: [offset])
                    try db.execute(sql: "UPDATE main.feeds SET import_id = import_id + ?", arguments: [offset])
                    try db.execute(sql: "INSERT INTO main.imports SELECT * FROM gtfs_replaced.imports")
                    // The kept changes go with their imports (a store from before version 6 has none).
                    if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM gtfs_replaced.sqlite_master WHERE name = 'changes')") ?? false {
                        try db.execute(sql: "UPDATE main.changes SET import_id = import_id + ?", arguments: [offset])
                        try db.execute(sql: "INSERT INTO main.changes SELECT * FROM gtfs_replaced.changes")
                    }
                    return .commit
                }
                return offset
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
                throw NotReplaceable()
            }
        }
    }

    /// Renames the prepared new store (``NewDatabaseFile/prepare()``) over the old file while holding the
    /// old file's exclusive lock, so that no connection reads it half replaced. The old file's WAL is
    /// emptied into it and removed first; after the rename its header is cleared, so that a program that
    /// opened the old file just before gets "not a database" instead of the old rows.
    /// - Throws: ``NotReplaceable`` when another connection has the old file open or its owner cannot be
    ///   kept (nothing changed then); `ImportError` when the rename fails.
    static func switchIn(_ newFile: NewDatabaseFile, at path: String, probe: Probe) throws {
        guard newFile.takeOwnership(of: probe.status) else { throw NotReplaceable() }
        let old: DatabaseQueue
        do {
            // A reader that is just closing gets a moment; one that stays open keeps the import in place.
            old = try exclusiveConnection(path, busyMode: .timeout(1))
        } catch {
            throw NotReplaceable()
        }
        defer { try? old.close() }
        try old.writeWithoutTransaction { db in
            // Out of WAL mode: needs every other connection closed, checkpoints the WAL into the file and
            // deletes it, and keeps the exclusive lock until the connection closes.
            guard (try? String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")) == "delete" else { throw NotReplaceable() }
            let descriptor = open(path, O_RDWR | O_CLOEXEC)
            try newFile.place(replacing: true)
            guard descriptor >= 0 else { return }
            // Closing any descriptor of the file drops this process's locks on it: only now, replaced.
            let cleared = [UInt8](repeating: 0, count: 16)
            _ = cleared.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
            close(descriptor)
        }
    }
}
