import Foundation
import GRDB
import GRDBSQLite
import GTFS

import Platform

/// How a store's file is opened: looked at before the pool opens it, again when another import replaced
/// it meanwhile, and as immutable where reading it would need a write that cannot happen.
extension GTFSStore {
    /// Opens the pool on the file at `path` after checking what the file is.
    ///
    /// A full import may rename a new file over the old one (``ReplacedDatabase``) while this runs: the
    /// old file is then locked for a moment and its header cleared, which a reader that opened it just
    /// before sees as "database is locked" or "not a database". When the file at `path` changed during a
    /// failed attempt, the open starts again, on the new file.
    static func openPool(path: String, configuration: Configuration) throws -> DatabasePool {
        var attempts = 0
        while true {
            let before = System.fileIdentity(atPath: path)
            do {
                // Look before opening the pool: a DatabasePool switches the file to WAL mode, which must not
                // happen to a database that belongs to something else.
                let name = try checkExistingFile(at: path, readOnly: configuration.readonly)
                let pool = try mapNotADatabase(path: path) { try DatabasePool(path: name, configuration: configuration) }
                // Check again under the writer's lock, in case another process changed the file meanwhile.
                try pool.barrierWriteWithoutTransaction { db in try refuseNewerSchema(db) }
                return pool
            } catch where attempts < 5 && !Self.same(System.fileIdentity(atPath: path), before) {
                attempts += 1
            }
        }
    }

    /// Whether two identities (or their absence) are the same.
    private static func same(_ a: (device: UInt64, inode: UInt64)?, _ b: (device: UInt64, inode: UInt64)?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let a?, let b?): a == b
        default: false
        }
    }

    /// What an existing file may be before the pool opens it.
    /// - Returns: the name to open it by: `path`, or for a read-only store that cannot be read otherwise,
    ///   an SQLite URI that opens it immutable.
    private static func checkExistingFile(at path: String, readOnly: Bool) throws -> String {
        if let problem = DatabasePath.problem(path) { throw StoreError.notAGTFSDatabase(path: path, reason: problem) }
        guard FileManager.default.fileExists(atPath: path) else { return path }
        // A 0-byte file is an empty database to SQLite.
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
        if size == 0 { return path }
        // An unreadable file gets SQLite's own error below.
        if let handle = FileHandle(forReadingAtPath: path) {
            defer { try? handle.close() }  // read-only: nothing to lose when closing fails
            let header = try handle.read(upToCount: 16) ?? Data()
            if header != Data("SQLite format 3\0".utf8) {
                throw StoreError.notAGTFSDatabase(path: path, reason: "it is not an SQLite database")
            }
        }
        do {
            try classify(openedAs: path, path: path)
            return path
        } catch let error as DatabaseError where readOnly && needsWriteToRead(error) {
            guard let immutable = immutableName(path) else { throw error }
            try classify(openedAs: immutable, path: path)
            return immutable
        }
    }

    /// Opens the file read-only by `name` and refuses what is not a GTFS store (see ``classify(_:path:)``).
    private static func classify(openedAs name: String, path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "GTFSStore.check"
        // As long as the pool itself waits: a full import switching a new file in holds it for a moment.
        configuration.busyMode = .timeout(5)
        try mapNotADatabase(path: path) {
            let queue = try DatabaseQueue(path: name, configuration: configuration)
            try queue.read { db in try classify(db, path: path) }
            try queue.close()
        }
    }

    /// Whether a read-only connection failed because reading a WAL database needs its shared-memory file
    /// (`-shm`) created or written: on read-only media, in a folder the user cannot write, on a full disk.
    private static func needsWriteToRead(_ error: DatabaseError) -> Bool {
        [.SQLITE_CANTOPEN, .SQLITE_IOERR, .SQLITE_READONLY, .SQLITE_FULL].contains(error.resultCode)
    }

    /// The URI that opens `path` immutable (no locks, no `-shm`), or `nil` when that would not be the same
    /// content or SQLite takes no URIs: a WAL that holds committed pages not yet copied into the file
    /// (an immutable open ignores the WAL) or an SQLite built without URI file names.
    private static func immutableName(_ path: String) -> String? {
        guard sqlite3_compileoption_used("USE_URI") == 1 else { return nil }
        let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? NSNumber)?.intValue ?? 0
        guard wal == 0 else { return nil }
        var escaped = ""
        for character in path {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3F"
            case "#": escaped += "%23"
            default: escaped.append(character)
            }
        }
        return "file:\(escaped)?immutable=1"
    }

    /// Accepts an empty database or a GTFS store of a schema this build knows.
    private static func classify(_ db: Database, path: String) throws {
        let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        let objects = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE substr(name, 1, 7) <> 'sqlite_' ORDER BY name")
        let names = objects.prefix(5).map(GTFSError.displayable).joined(separator: ", ") + (objects.count > 5 ? ", …" : "")
        if applicationID == GTFSSchema.applicationID {
            // The id alone proves nothing: a store has run the first migration.
            if !objects.isEmpty, try !GTFSSchema.migrator.appliedIdentifiers(db).contains(SchemaV1.identifier) {
                throw StoreError.notAGTFSDatabase(path: path, reason: "it carries the GTFS application_id but not a GTFS schema (it holds \(names))")
            }
            try refuseNewerSchema(db)
            return
        }
        if applicationID != 0 {
            let hex = String(UInt32(bitPattern: applicationID), radix: 16)
            throw StoreError.notAGTFSDatabase(path: path, reason: "its application_id 0x\(hex) belongs to another application")
        }
        if !objects.isEmpty {
            throw StoreError.notAGTFSDatabase(path: path, reason: "it holds other tables (\(names))")
        }
    }

    /// Throws `StoreError.newerSchema(found:supported:)` when the database holds migrations this build
    /// does not know.
    private static func refuseNewerSchema(_ db: Database) throws {
        let migrator = GTFSSchema.migrator
        guard try migrator.hasBeenSuperseded(db) else { return }
        let known = Set(migrator.migrations)
        let unknown = try migrator.appliedIdentifiers(db).subtracting(known).sorted()
        throw StoreError.newerSchema(found: unknown, supported: migrator.migrations)
    }

    /// Runs `body`, turning SQLite's "file is not a database" into `StoreError.notAGTFSDatabase(path:reason:)`.
    private static func mapNotADatabase<T>(path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw StoreError.notAGTFSDatabase(path: path, reason: "it is not an SQLite database")
        }
    }
}
