import Foundation
import GRDB
import GTFS
import GTFSStoreCore

/// The feed bookkeeping inside a store: `feeds`, `feed_tables` and `imports` (see ``SchemaV2``).
package enum FeedCatalog {
    /// The feed named `name`, or `nil` when the store does not hold it.
    static func state(_ db: Database, name: String) throws -> FeedState? {
        guard let row = try Row.fetchOne(db, sql: "SELECT feed, import_id, content_hash FROM feeds WHERE name = ?", arguments: [name]) else {
            return nil
        }
        let id: Int64 = row["feed"]
        var tables: [GTFSFile: TableState] = [:]
        for table in try Row.fetchAll(
            db, sql: "SELECT table_name, content_hash, rows_read, rows_stored, rows_rejected, content_crc32, stored_hash FROM feed_tables WHERE feed = ?",
            arguments: [id])
        {
            guard let file = GTFSFile(rawValue: table["table_name"]) else { continue }
            tables[file] = TableState(
                contentHash: table["content_hash"], rowsRead: table["rows_read"], rowsStored: table["rows_stored"],
                rowsRejected: table["rows_rejected"], contentCRC32: (table["content_crc32"] as Int64?).map { UInt32(truncatingIfNeeded: $0) },
                storedHash: table["stored_hash"])
        }
        var withRows = Set<GTFSFile>()
        for file in GTFSFile.allCases
        where try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(GTFSSchema.tableName(for: file)) WHERE feed = ?)", arguments: [id])
            ?? false
        {
            withRows.insert(file)
        }
        return FeedState(
            id: id, importID: row["import_id"], contentHash: row["content_hash"], tables: tables, tablesWithRows: withRows)
    }

    /// The feed's number, creating its row when the store does not hold it yet.
    static func id(_ db: Database, name: String) throws -> Int64 {
        if let id = try Int64.fetchOne(db, sql: "SELECT feed FROM feeds WHERE name = ?", arguments: [name]) { return id }
        let next = (try Int64.fetchOne(db, sql: "SELECT max(feed) FROM feeds") ?? 0) + 1
        try db.execute(sql: "INSERT INTO feeds (feed, name) VALUES (?, ?)", arguments: [next, name])
        return next
    }

    /// Whether feeds other than `id` exist (a replacement then deletes row by row instead of truncating).
    static func hasOtherFeeds(_ db: Database, than id: Int64) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM feeds WHERE feed <> ?)", arguments: [id]) ?? false
    }

    /// Records the hash of the stored bytes of an unchanged table's file (see ``TableState/storedHash``).
    static func recordStoredHash(_ db: Database, feed: Int64, file: GTFSFile, hash: String) throws {
        try db.execute(
            sql: "UPDATE feed_tables SET stored_hash = ? WHERE feed = ? AND table_name = ?",
            arguments: [hash, feed, GTFSSchema.tableName(for: file)])
    }

    /// Records the tables an import loaded (`nil` hash: unknown) and forgets those it emptied.
    static func recordTables(_ db: Database, feed: Int64, loaded: [GTFSFile: TableState], emptied: Set<GTFSFile>) throws {
        for (file, state) in loaded {
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO feed_tables (feed, table_name, content_hash, rows_read, rows_stored, rows_rejected, content_crc32, stored_hash)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    feed, GTFSSchema.tableName(for: file), state.contentHash, state.rowsRead, state.rowsStored, state.rowsRejected,
                    state.contentCRC32.map { Int64($0) }, state.storedHash,
                ])
        }
        for file in emptied where loaded[file] == nil {
            try db.execute(
                sql: "DELETE FROM feed_tables WHERE feed = ? AND table_name = ?", arguments: [feed, GTFSSchema.tableName(for: file)])
        }
        try FeedGroups.delete(db, feed: feed, tables: emptied.filter { loaded[$0] == nil })
    }

    /// The feed's content hash: the SHA-256 of `table_name:hash` lines over its recorded tables, in name
    /// order; `nil` when a table's hash is unknown or it holds rows of a table not recorded.
    static func contentHash(_ db: Database, feed: Int64) throws -> String? {
        let rows = try Row.fetchAll(
            db, sql: "SELECT table_name, content_hash FROM feed_tables WHERE feed = ? ORDER BY table_name", arguments: [feed])
        return FeedState.contentHash(tables: rows.map { ($0["table_name"], $0["content_hash"]) })
    }

    /// One row of `imports`.
    struct ImportRecord {
        var feedName: String
        var source: String
        var contentHash: String?
        var startedAt: Date
        var kind: ImportSummary.Kind
        var outcome: String
        var inserted = 0
        var updated = 0
        var deleted = 0
        var unchanged = 0
        var rejected = 0
        var message: String?
    }

    /// Appends to `imports`.
    /// - Returns: the new row's `import_id`.
    @discardableResult
    static func record(_ db: Database, _ record: ImportRecord) throws -> Int64 {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        try db.execute(
            sql: """
                INSERT INTO imports (feed_name, source, content_hash, started_at, ended_at, kind, outcome,
                    rows_inserted, rows_updated, rows_deleted, rows_unchanged, rows_rejected, message)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                record.feedName, record.source, record.contentHash, formatter.string(from: record.startedAt),
                formatter.string(from: Date()), record.kind.rawValue, record.outcome, record.inserted, record.updated,
                record.deleted, record.unchanged, record.rejected, record.message,
            ])
        return db.lastInsertedRowID
    }

    /// Makes the import `importID` the feed's current version.
    static func setCurrentVersion(_ db: Database, feed: Int64, source: String, importID: Int64, contentHash: String?) throws {
        let formatter = ISO8601DateFormatter()
        try db.execute(
            sql: "UPDATE feeds SET content_hash = ?, source = ?, imported_at = ?, import_id = ? WHERE feed = ?",
            arguments: [contentHash, source, formatter.string(from: Date()), importID, feed])
    }

    /// Forgets the content hashes of tables whose rows are about to be replaced, so that an import that
    /// stops half way (batched mode) can never be taken for the version those hashes describe.
    static func forgetHashes(_ db: Database, feed: Int64, of tables: [GTFSFile]) throws {
        for file in tables {
            try db.execute(
                sql: "DELETE FROM feed_tables WHERE feed = ? AND table_name = ?", arguments: [feed, GTFSSchema.tableName(for: file)])
        }
        try FeedGroups.delete(db, feed: feed, tables: tables)
        try db.execute(sql: "UPDATE feeds SET content_hash = NULL WHERE feed = ?", arguments: [feed])
    }

    /// Every feed with its version and counts, by name.
    static func list(_ db: Database) throws -> [StoredFeed] {
        var countsByFeed: [Int64: [GTFSFile: Int]] = [:]
        for file in GTFSFile.allCases {
            for row in try Row.fetchAll(db, sql: "SELECT feed, count(*) AS n FROM \(GTFSSchema.tableName(for: file)) GROUP BY feed") {
                countsByFeed[row["feed"], default: [:]][file] = row["n"]
            }
        }
        let importCounts = try Dictionary(
            Row.fetchAll(db, sql: "SELECT feed_name, count(*) AS n FROM imports GROUP BY feed_name").map {
                (($0["feed_name"] as String), ($0["n"] as Int))
            }, uniquingKeysWith: +)
        return try Row.fetchAll(db, sql: "SELECT feed, name, content_hash, source, imported_at, import_id FROM feeds ORDER BY name").map { row in
            let id: Int64 = row["feed"]
            let name: String = row["name"]
            return StoredFeed(
                id: id, name: name, contentHash: row["content_hash"], source: row["source"], importedAt: row["imported_at"],
                importID: row["import_id"], rowCounts: countsByFeed[id] ?? [:], importCount: importCounts[name] ?? 0)
        }
    }

    /// Deletes a feed's rows from every table, its `feed_tables` rows and its `feeds` row (its `imports`
    /// history stays).
    /// - Returns: the rows deleted from GTFS tables, or `nil` when there is no such feed.
    static func remove(_ db: Database, name: String) throws -> Int? {
        guard let id = try Int64.fetchOne(db, sql: "SELECT feed FROM feeds WHERE name = ?", arguments: [name]) else { return nil }
        // The only feed's rows are every row: the tables are truncated instead of deleted row by row.
        let deleted = try GTFSSchema.deleteRows(db, feed: try hasOtherFeeds(db, than: id) ? id : nil).values.reduce(0, +)
        try db.execute(sql: "DELETE FROM feed_tables WHERE feed = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM feed_groups WHERE feed = ?", arguments: [id])
        try db.execute(sql: "DELETE FROM feed_references WHERE feed = ?", arguments: [id])
        try Timetable.remove(db, feed: id)
        for statement in RealtimeTables.deleteFeedStatements(name: { $0 }, placeholder: "?") {
            try db.execute(sql: statement, arguments: [id])
        }
        try db.execute(sql: "DELETE FROM feeds WHERE feed = ?", arguments: [id])
        return deleted
    }
}
