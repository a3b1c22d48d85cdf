import GTFS
import GTFSImport

/// The new rows of one table of a feed the schema already holds, in a temporary table of this transaction,
/// and their merge into the stored table by key: only rows that differ are written.
///
/// - Keyed tables: stored rows whose key the new rows lack are deleted (`DELETE … WHERE NOT EXISTS`), then
///   the new rows are inserted, or update the stored row of their key when a value differs
///   (`INSERT … ON CONFLICT … DO UPDATE … WHERE … IS DISTINCT FROM`). New rows that repeat a key are
///   rejected, the later ones in file order, before the merge; looked for only when the merge fails on them.
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
    var copyStatement: String { table.copyStatement(into: "pg_temp.\(name)", freeze: true) }

    /// Merges the staged rows into the stored table, then drops the staging table.
    /// - Parameters:
    ///   - staged: the rows the COPY sent.
    ///   - fileName: the file, for the errors of rejected rows.
    /// - Returns: the counts by key, and the errors of the rows rejected for repeating a key.
    func merge(staged: Int, fileName: String) throws(PostgresError) -> (changes: TableChanges, rejected: [GTFSError]) {
        let result = try mergeRows(staged: staged, fileName: fileName)
        try connection.execute("DROP TABLE pg_temp.\(name)", "drop the staging table")
        return result
    }

    private func mergeRows(staged: Int, fileName: String) throws(PostgresError) -> (changes: TableChanges, rejected: [GTFSError]) {
        guard !table.keyExpressions.isEmpty else { return (try replaceIfDifferent(staged: staged), []) }
        try connection.execute("SAVEPOINT merge", "merge \(table.name)")
        do {
            let changes = try mergeByKey(staged: staged)
            try connection.execute("RELEASE SAVEPOINT merge", "merge \(table.name)")
            return (changes, [])
        } catch where error.sqlState == "21000" {
            // "ON CONFLICT DO UPDATE command cannot affect row a second time": new rows repeat a key.
            try connection.execute("ROLLBACK TO SAVEPOINT merge; RELEASE SAVEPOINT merge", "merge \(table.name)")
        }
        let rejected = try PostgresKeys.removeRepeatedKeys(of: table, in: "pg_temp.\(name)", fileName: fileName, connection: connection)
        return (try mergeByKey(staged: staged - rejected.count), rejected)
    }

    private func mergeByKey(staged: Int) throws(PostgresError) -> TableChanges {
        let stored = "\(schema).\(table.name)"
        let matches = zip(table.keyExpressions(of: "s"), table.keyExpressions(of: "t")).map { "\($0) = \($1)" }.joined(separator: " AND ")
        let deleted = try connection.execute(
            "DELETE FROM \(stored) t WHERE t.feed = \(feed) AND NOT EXISTS (SELECT 1 FROM pg_temp.\(name) s WHERE \(matches))",
            "delete the rows of \(table.name) the new version lacks")
        let columns = table.columnNames
        let fields = columns.dropFirst()
        let rows = try connection.query(
            """
            WITH merged AS (
                INSERT INTO \(stored) AS t (\(columns.joined(separator: ", ")))
                SELECT \(columns.joined(separator: ", ")) FROM pg_temp.\(name)
                ON CONFLICT \(table.conflictTarget) DO UPDATE SET \(fields.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
                WHERE (\(fields.map { "t.\($0)" }.joined(separator: ", "))) IS DISTINCT FROM (\(fields.map { "excluded.\($0)" }.joined(separator: ", ")))
                RETURNING xmax = 0 AS inserted)
            SELECT count(*) FILTER (WHERE inserted), count(*) FILTER (WHERE NOT inserted) FROM merged
            """, [], "merge \(table.name)")
        let inserted = rows.first?[0].flatMap { Int($0) } ?? 0
        let updated = rows.first?[1].flatMap { Int($0) } ?? 0
        return TableChanges(inserted: inserted, updated: updated, deleted: deleted, unchanged: max(0, staged - inserted - updated))
    }

    /// A table without a key: the rows only one side holds, counted as multisets; when there are any, the
    /// stored rows are replaced by the staged ones.
    private func replaceIfDifferent(staged: Int) throws(PostgresError) -> TableChanges {
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
            try connection.execute(
                """
                DELETE FROM \(stored) WHERE feed = \(feed);
                INSERT INTO \(stored) (\(table.columnNames.joined(separator: ", "))) SELECT \(table.columnNames.joined(separator: ", ")) FROM pg_temp.\(name)
                """, "replace \(table.name)")
        }
        return TableChanges(inserted: inserted, deleted: deleted, unchanged: staged - inserted)
    }
}
