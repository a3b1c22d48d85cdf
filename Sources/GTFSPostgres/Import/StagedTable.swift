import GTFS
import GTFSStoreCore

/// The new rows of one table of a feed the schema already holds, in a temporary table of this transaction,
/// and their merge into the stored table by key: only rows that differ are written.
///
/// - Keyed tables: stored rows whose key the new rows lack are deleted (`DELETE … WHERE NOT EXISTS`), then
///   staged rows equal to the stored row of their key are dropped (`IS NOT DISTINCT FROM`), and the rest
///   inserted, or update the stored row of their key (`INSERT … ON CONFLICT … DO UPDATE`). New rows that repeat a key are
///   rejected, the later ones in file order, before the merge; looked for only when a unique index on
///   the staged rows fails.
/// - Tables without a key (`feed_info`, `attributions`) are compared as multisets of rows and, when they
///   differ, replaced whole.
///
/// The counts are those of the SQLite store's diff: a row is inserted, updated, deleted or unchanged by key.
struct StagedTable {
    let table: PostgresTable
    let schema: String
    let feed: Int32
    let connection: PostgresConnection

    /// `gtfs_stage_stop_times`, a temporary table: not written to the WAL, dropped at the end of the merge.
    var name: String { "gtfs_stage_\(table.name)" }

    /// Creates the empty staging table (the columns of the stored one, no key), frozen rows allowed.
    init(_ table: PostgresTable, schema: String, feed: Int32, connection: PostgresConnection) throws(PostgresError) {
        self.table = table
        self.schema = schema
        self.feed = feed
        self.connection = connection
        try connection.execute(
            "DROP TABLE IF EXISTS pg_temp.\(name); CREATE TEMPORARY TABLE \(name) (LIKE \(schema).\(table.name)) ON COMMIT DROP",
            "stage \(table.name)")
    }

    /// `COPY` into the staging table.
    func copyStatement(format: CopyFormat, sent: [Bool]) -> String {
        table.copyStatement(into: "pg_temp.\(name)", freeze: true, format: format, sent: sent)
    }

    /// What a merge did.
    struct Merged {
        var changes: TableChanges
        /// The errors of the rows rejected for repeating a key.
        var rejected: [GTFSError] = []
        /// Their groups (the key's first value), for a grouped table.
        var rejectedGroups: Set<String> = []
    }

    /// Merges the staged rows into the stored table, then drops the staging table.
    /// - Parameters:
    ///   - staged: the rows the COPY sent.
    ///   - fileName: the file, for the errors of rejected rows.
    ///   - comparison: for a grouped table whose groups were compared: the staged rows are those of the
    ///     changed groups, and only those groups (and the gone ones) of the stored table are merged.
    ///   - changes: where the rows that change are reported, before they are written.
    /// - Returns: the counts by key, and the rows rejected for repeating a key.
    func merge(staged: Int, fileName: String, within comparison: GroupComparison? = nil, changes: PostgresChanges? = nil) throws -> Merged {
        var result = try mergeRows(staged: staged, fileName: fileName, within: comparison, changes: changes)
        result.changes.unchanged += comparison?.unchangedRows ?? 0
        try connection.execute("DROP TABLE pg_temp.\(name)", "drop the staging table")
        return result
    }

    private func mergeRows(staged: Int, fileName: String, within comparison: GroupComparison?, changes: PostgresChanges?) throws -> Merged {
        guard !table.keyExpressions.isEmpty else { return Merged(changes: try replaceIfDifferent(staged: staged, changes: changes)) }
        // New rows that repeat a key are found by a unique index on the staged rows (ON CONFLICT would let a
        // repeat through when the first row equals the stored one), which the merge then reads by key.
        let key = "CREATE UNIQUE INDEX ON pg_temp.\(name) (\((table.keyExpressions + ["feed"]).joined(separator: ", ")))"
        var result = Merged(changes: TableChanges())
        (result.rejected, result.rejectedGroups) = try PostgresKeys.add([key], of: table, in: "pg_temp.\(name)", fileName: fileName, connection: connection)
        result.changes = try mergeByKey(within: comparison, changes: changes)
        return result
    }

    private func mergeByKey(within comparison: GroupComparison?, changes: PostgresChanges?) throws -> TableChanges {
        let stored = "\(schema).\(table.name)"
        let stage = "pg_temp.\(name)"
        let matches = zip(table.keyExpressions(of: "s"), table.keyExpressions(of: "t")).map { "\($0) = \($1)" }.joined(separator: " AND ")
        // Within compared groups: the stored rows of the groups that changed or went, reached group by group.
        let groups = comparison.map { (using: " USING \($0.states) g", condition: " AND g.state <> 0 AND t.\($0.column) = g.group_key") }
        // The planner needs the temporary tables' sizes and values (autovacuum never analyzes them).
        try connection.execute("ANALYZE \(stage)" + (comparison.map { "; ANALYZE \($0.states)" } ?? ""), "analyze the staged \(table.name)")
        // Within compared groups, the rows to look at are a few per group, reached through the key
        // indexes; hash and merge joins would read the whole stored table (4.8 against 2.9 s measured).
        if let changes {
            let rows = comparison.map { "\(stored) x JOIN \($0.states) g ON g.state <> 0 AND x.\($0.column) = g.group_key" } ?? "\(stored) x"
            try changes.reportMerge(of: table, stored: "(SELECT x.* FROM \(rows) WHERE x.feed = \(feed)) t", stage: stage)
        }
        if comparison != nil { try connection.execute("SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off", "plan the merge") }
        let deleted = try connection.execute(
            "DELETE FROM \(stored) t\(groups?.using ?? "") WHERE t.feed = \(feed)\(groups?.condition ?? "")"
                + " AND NOT EXISTS (SELECT 1 FROM \(stage) s WHERE \(matches))",
            "delete the rows of \(table.name) the new version lacks")
        // Rows as they are stored leave the staging table, so that only new and changed rows are written.
        let fields = table.columnNames.dropFirst()
        let unchanged = try connection.execute(
            """
            DELETE FROM \(stage) s USING \(stored) t WHERE t.feed = \(feed) AND \(matches)
                AND (\(fields.map { "t.\($0)" }.joined(separator: ", "))) IS NOT DISTINCT FROM (\(fields.map { "s.\($0)" }.joined(separator: ", ")))
            """, "compare \(table.name)")
        if comparison != nil { try connection.execute("SET LOCAL enable_hashjoin = on; SET LOCAL enable_mergejoin = on", "plan the merge") }
        let columns = table.columnNames.joined(separator: ", ")
        let rows = try connection.query(
            """
            WITH merged AS (
                INSERT INTO \(stored) AS t (\(columns)) SELECT \(columns) FROM \(stage)
                ON CONFLICT \(table.conflictTarget) DO UPDATE SET \(fields.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
                RETURNING xmax = 0 AS inserted)
            SELECT count(*) FILTER (WHERE inserted), count(*) FILTER (WHERE NOT inserted) FROM merged
            """, [], "merge \(table.name)")
        let inserted = rows.first?[0].flatMap { Int($0) } ?? 0
        let updated = rows.first?[1].flatMap { Int($0) } ?? 0
        return TableChanges(inserted: inserted, updated: updated, deleted: deleted, unchanged: unchanged)
    }

    /// A table without a key: the rows only one side holds, counted as multisets; when there are any, the
    /// stored rows are replaced by the staged ones.
    private func replaceIfDifferent(staged: Int, changes: PostgresChanges?) throws -> TableChanges {
        let stored = "\(schema).\(table.name)"
        let columns = table.columnNames.dropFirst().joined(separator: ", ")
        let rows = try connection.query(
            """
            SELECT (SELECT count(*) FROM (SELECT \(columns) FROM pg_temp.\(name)
                    EXCEPT ALL SELECT \(columns) FROM \(stored) WHERE feed = \(feed)) n),
                (SELECT count(*) FROM (SELECT \(columns) FROM \(stored) WHERE feed = \(feed)
                    EXCEPT ALL SELECT \(columns) FROM pg_temp.\(name)) o)
            """, [], "compare \(table.name)")
        let inserted = rows.first?[0].flatMap { Int($0) } ?? 0
        let deleted = rows.first?[1].flatMap { Int($0) } ?? 0
        if inserted > 0 || deleted > 0 {
            try changes?.reportReplacement(
                of: table, stored: "(SELECT \(columns) FROM \(stored) WHERE feed = \(feed)) t", stage: "pg_temp.\(name)")
            try connection.execute(
                """
                DELETE FROM \(stored) WHERE feed = \(feed);
                INSERT INTO \(stored) (\(table.columnNames.joined(separator: ", "))) SELECT \(table.columnNames.joined(separator: ", ")) FROM pg_temp.\(name)
                """, "replace \(table.name)")
        }
        return TableChanges(inserted: inserted, deleted: deleted, unchanged: staged - inserted)
    }
}
