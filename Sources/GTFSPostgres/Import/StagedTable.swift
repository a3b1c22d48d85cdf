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
        // The planner needs the temporary tables' sizes and values (autovacuum never analyzes them).
        try connection.execute("ANALYZE \(stage)" + (comparison.map { "; ANALYZE \($0.states)" } ?? ""), "analyze the staged \(table.name)")
        // Within compared groups: the stored rows of the groups that changed or went, reached group by group.
        let rows = comparison.map { "\(stored) x JOIN \($0.states) g ON g.state <> 0 AND x.\($0.column) = g.group_key" } ?? "\(stored) x"
        if let changes {
            try changes.reportMerge(of: table, stored: "(SELECT x.* FROM \(rows) WHERE x.feed = \(feed)) t", stage: stage)
        }
        let differing = try diff(stored: "(SELECT x.ctid AS stored_row, x.* FROM \(rows) WHERE x.feed = \(feed)) t", stage: stage)
        let deleted = try connection.execute(
            "DELETE FROM \(stored) WHERE ctid = ANY(ARRAY(SELECT stored_row FROM \(differing) WHERE staged_row IS NULL))",
            "delete the rows of \(table.name) the new version lacks")
        let columns = table.columnNames.joined(separator: ", ")
        let fields = table.columnNames.dropFirst()
        let merged = try connection.query(
            """
            WITH merged AS (
                INSERT INTO \(stored) AS t (\(columns)) SELECT \(columns) FROM \(stage)
                WHERE ctid = ANY(ARRAY(SELECT staged_row FROM \(differing) WHERE staged_row IS NOT NULL))
                ON CONFLICT \(table.conflictTarget) DO UPDATE SET \(fields.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
                RETURNING xmax = 0 AS inserted)
            SELECT count(*) FILTER (WHERE inserted), count(*) FILTER (WHERE NOT inserted), (SELECT count(*) FROM \(stage)) FROM merged
            """, [], "merge \(table.name)")
        let inserted = merged.first?[0].flatMap { Int($0) } ?? 0
        let updated = merged.first?[1].flatMap { Int($0) } ?? 0
        let staged = merged.first?[2].flatMap { Int($0) } ?? 0
        try connection.execute("DROP TABLE \(differing)", "drop the differences")
        return TableChanges(inserted: inserted, updated: updated, deleted: deleted, unchanged: staged - inserted - updated)
    }

    /// The rows of `stored` (a relation with each row's `stored_row`) and of `stage` that differ, matched by
    /// key in one pass: a stored row without a staged one (`staged_row` NULL), a staged row without a
    /// stored one (`stored_row` NULL), and both rows of a key whose values differ. Equal rows are most of a
    /// changed group: one hash join finds them, where a look-up per row in each direction cost three times
    /// as much (VBB scale, 1 % of stop_times changed: 1.43 M rows of changed groups).
    /// - Returns: the temporary table of the row ids.
    private func diff(stored: String, stage: String) throws(PostgresError) -> String {
        let differing = "pg_temp.gtfs_diff_\(table.name)"
        let matches = zip(table.keyExpressions(of: "s"), table.keyExpressions(of: "t")).map { "\($0) = \($1)" }.joined(separator: " AND ")
        let fields = table.columnNames.dropFirst()
        try connection.execute(
            """
            DROP TABLE IF EXISTS \(differing);
            CREATE TEMPORARY TABLE gtfs_diff_\(table.name) ON COMMIT DROP AS
            SELECT t.stored_row, s.ctid AS staged_row FROM \(stored) FULL JOIN \(stage) s ON \(matches)
            WHERE t.stored_row IS NULL OR s.ctid IS NULL
                OR (\(fields.map { "t.\($0)" }.joined(separator: ", "))) IS DISTINCT FROM (\(fields.map { "s.\($0)" }.joined(separator: ", ")))
            """, "compare \(table.name)")
        return differing
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
