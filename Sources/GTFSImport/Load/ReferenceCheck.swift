import GRDB
import GTFS

/// A ``GTFS/ColumnReference`` checked in the SQLite store.
struct ReferenceCheck: Sendable {
    /// The reference.
    let reference: ColumnReference

    var file: GTFSFile { reference.file }
    var column: String { reference.column }

    /// Every reference, in the order the report lists them.
    static let all: [ReferenceCheck] = ColumnReference.all.map { ReferenceCheck(reference: $0) }

    /// Whether the check concerns one of `files` (as the referring table or a target).
    func involves(_ files: Set<GTFSFile>) -> Bool { reference.involves(files) }

    /// Runs the check within one feed: first the distinct values of the column (read from an index where
    /// one starts with the column, such as stop_times' primary key or `stop_times_stop`), then
    /// a key lookup per distinct value, and only when some are missing a count of the rows that hold them.
    /// On 5 M stop_times this takes 0.3–0.4 s per reference, where a lookup per row took 3–4 s.
    ///
    /// The values are kept in `temp.gtfs_missing`, replaced by the next check; ``dropScratch(_:)`` removes it.
    ///
    /// - Parameters:
    ///   - db: a connection.
    ///   - feed: the feed's number in `feeds`; references never cross feeds.
    /// - Returns: the finding, or `nil` when every reference resolves.
    /// - Throws: `DatabaseError` (an interrupt when the import is cancelled).
    func run(_ db: Database, feed: Int64) throws -> IntegrityFinding? {
        let table = GTFSSchema.tableName(for: file)
        return try findMissing(db, feed: feed, used: "SELECT DISTINCT \(column) FROM \(table) WHERE feed = \(feed) AND \(column) IS NOT NULL")
    }

    /// Whether ``runOnChanges(_:feed:changed:)`` gives the same finding as ``run(_:feed:)`` after an
    /// incremental import that changed the tables `changed`: the referring table was compared as a diff
    /// (its staging copy holds its new rows), none of the targets changed, and the last check of the
    /// feed found every value (`feed_references`). The other rows' values resolved then and still do.
    /// - Throws: `DatabaseError`.
    func checksChangesOnly(_ db: Database, feed: Int64, changed: Set<GTFSFile>) throws -> Bool {
        guard changed.contains(file), !reference.targets.contains(where: { changed.contains($0.file) }) else { return false }
        guard try Self.scratchTable(db, TableDiff.stagePrefix + GTFSSchema.tableName(for: file)) else { return false }
        let missing = try Int.fetchOne(
            db, sql: "SELECT missing_rows FROM feed_references WHERE feed = ? AND table_name = ? AND column_name = ?",
            arguments: [feed, GTFSSchema.tableName(for: file), column])
        return missing == 0
    }

    /// Checks only the values of the rows an incremental import inserted or updated in the referring table:
    /// the rows of its staging copy, and those a ``GroupComparer`` wrote (the keys in its undo log).
    /// Only when ``checksChangesOnly(_:feed:changed:)`` holds.
    /// - Throws: `DatabaseError`.
    func runOnChanges(_ db: Database, feed: Int64) throws -> IntegrityFinding? {
        let table = GTFSSchema.tableName(for: file)
        var used = "SELECT \(column) FROM \(TableDiff.scratch).\(TableDiff.stagePrefix)\(table) WHERE feed = \(feed) AND \(column) IS NOT NULL"
        if try Self.scratchTable(db, GroupComparer.undoPrefix + table) {
            let sameKey = StoreTable(file).keyColumns.map { "m.\($0) = u.\($0)" }.joined(separator: " AND ")
            used += """
                 UNION SELECT m.\(column) FROM \(TableDiff.scratch).\(GroupComparer.undoPrefix)\(table) AS u
                JOIN main.\(table) AS m ON m.feed = \(feed) AND \(sameKey)
                WHERE u.kind <> \(TableDiff.Write.delete.rawValue) AND m.\(column) IS NOT NULL
                """
        }
        return try findMissing(db, feed: feed, used: used)
    }

    /// Records the outcome of a check for ``checksChangesOnly(_:feed:changed:)``.
    /// - Throws: `DatabaseError`.
    func record(_ finding: IntegrityFinding?, _ db: Database, feed: Int64) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO feed_references (feed, table_name, column_name, missing_rows) VALUES (?, ?, ?, ?)",
            arguments: [feed, GTFSSchema.tableName(for: file), column, finding?.rowCount ?? 0])
    }

    /// Forgets the outcome of the last check (an import changed the tables without checking them).
    /// - Throws: `DatabaseError`.
    func forget(_ db: Database, feed: Int64) throws {
        try db.execute(
            sql: "DELETE FROM feed_references WHERE feed = ? AND table_name = ? AND column_name = ?",
            arguments: [feed, GTFSSchema.tableName(for: file), column])
    }

    /// The values of `used` (a query of one column) that no target holds, as a finding.
    private func findMissing(_ db: Database, feed: Int64, used: String) throws -> IntegrityFinding? {
        let table = GTFSSchema.tableName(for: file)
        let missing = reference.targets.map { target in
            "NOT EXISTS (SELECT 1 FROM \(GTFSSchema.tableName(for: target.file)) t WHERE t.feed = \(feed) AND t.\(target.column) = used.v)"
        }
        try db.execute(sql: "DROP TABLE IF EXISTS temp.gtfs_missing")
        try db.execute(sql: """
            CREATE TEMP TABLE gtfs_missing AS
            WITH used(v) AS MATERIALIZED (\(used))
            SELECT DISTINCT v FROM used WHERE \(missing.joined(separator: " AND "))
            """)
        let valueCount = try Int.fetchOne(db, sql: "SELECT count(*) FROM temp.gtfs_missing") ?? 0
        guard valueCount > 0 else { return nil }
        let examples = try String.fetchAll(db, sql: "SELECT v FROM temp.gtfs_missing ORDER BY v LIMIT 5")
        let rowCount = try Int.fetchOne(
            db, sql: "SELECT count(*) FROM \(table) WHERE feed = \(feed) AND \(column) IN (SELECT v FROM temp.gtfs_missing)") ?? 0
        return IntegrityFinding(
            file: file, column: column, target: reference.targetDescription, rowCount: rowCount, valueCount: valueCount, examples: examples)
    }

    private static func scratchTable(_ db: Database, _ name: String) throws -> Bool {
        try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM \(TableDiff.scratch).sqlite_master WHERE type = 'table' AND name = ?)", arguments: [name])
            ?? false
    }

    /// Drops the scratch table of the last ``run(_:)``.
    /// - Throws: `DatabaseError`.
    static func dropScratch(_ db: Database) throws {
        try db.execute(sql: "DROP TABLE IF EXISTS temp.gtfs_missing")
    }
}
