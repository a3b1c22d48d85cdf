import GTFS
import GTFSImport

/// The reference checks of `ColumnReference.all` in SQL, within one feed.
enum PostgresReferenceCheck {
    /// The rows of a reference within one feed whose value no target row holds (a hash anti-join), then
    /// the distinct values among those only: a feed whose references resolve never pays for a `DISTINCT`
    /// over a large table (whose hash aggregate, misestimated, spilled for minutes).
    ///
    /// When no target holds a row of the feed (a file imported alone), every value is missing. If the
    /// column is its table's group column and `groupsCoverTable`, the table's `feed_groups` rows are its
    /// distinct values with their row counts, and the finding comes from them (195 k rows for 5 M
    /// stop_times) instead of from grouping the table.
    /// - Parameter groupsCoverTable: whether `feed_groups` holds every group of the table's rows of the
    ///   feed with its exact row count: the table was loaded whole and digested by this import, and no
    ///   row was rejected.
    /// - Returns: the finding, or `nil` when every value resolves.
    static func check(
        _ reference: ColumnReference, schema: String, feed: Int32, groupsCoverTable: Bool, connection: PostgresConnection
    ) throws(PostgresError) -> IntegrityFinding? {
        let table = "\(schema).\(reference.file.rawValue)", column = reference.column
        let resolves = reference.targets.map { target in
            "NOT EXISTS (SELECT 1 FROM \(schema).\(target.file.rawValue) t WHERE t.feed = \(feed) AND t.\(target.column) = s.\(column))"
        }
        // Targets without a row of the feed (a file imported alone): every value is missing, and one
        // grouping of the column gives the counts without writing its rows aside.
        let emptyTargets = try connection.query(
            "SELECT " + reference.targets.map { "NOT EXISTS (SELECT 1 FROM \(schema).\($0.file.rawValue) WHERE feed = \(feed))" }
                .joined(separator: " AND "), [], "look at \(reference.targetDescription)")
        let targetsEmpty = emptyTargets.first?.first.flatMap({ $0 }) == "t"
        let groups = "\(schema).feed_groups WHERE feed = \(feed) AND table_name = '\(reference.file.rawValue)'"
        let rows = try connection.query(
            targetsEmpty && groupsCoverTable && GroupedTables.column(for: reference.file) == column
                ? """
                SELECT count(*), coalesce(sum(rows), 0),
                    (SELECT string_agg(group_key, chr(31) ORDER BY group_key) FROM (SELECT group_key FROM \(groups) ORDER BY group_key LIMIT 5) e)
                FROM \(groups)
                """
                : targetsEmpty
                ? """
                WITH missing(v, n) AS MATERIALIZED (
                    SELECT \(column), count(*) FROM \(table) WHERE feed = \(feed) AND \(column) IS NOT NULL GROUP BY \(column))
                SELECT count(*), coalesce(sum(n), 0), (SELECT string_agg(v, chr(31) ORDER BY v) FROM (SELECT v FROM missing ORDER BY v LIMIT 5) e)
                FROM missing
                """
                : """
            WITH missing_rows(v) AS MATERIALIZED (
                SELECT s.\(column) FROM \(table) s WHERE s.feed = \(feed) AND s.\(column) IS NOT NULL AND \(resolves.joined(separator: " AND "))),
            missing(v) AS MATERIALIZED (SELECT DISTINCT v FROM missing_rows)
            SELECT (SELECT count(*) FROM missing), (SELECT count(*) FROM missing_rows),
                (SELECT string_agg(v, chr(31) ORDER BY v) FROM (SELECT v FROM missing ORDER BY v LIMIT 5) e)
            """, [], "check \(reference.file.rawValue).\(column)")
        guard let row = rows.first, let values = row[0].flatMap({ Int($0) }), values > 0 else { return nil }
        return IntegrityFinding(
            file: reference.file, column: column, target: reference.targetDescription, rowCount: row[1].flatMap { Int($0) } ?? 0,
            valueCount: values, examples: (row[2] ?? "").split(separator: "\u{1F}").map(String.init))
    }
}
