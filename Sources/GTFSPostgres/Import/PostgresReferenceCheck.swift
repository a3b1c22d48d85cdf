import GTFS
import GTFSStoreCore

/// The reference checks of `ColumnReference.all` in SQL, within one feed.
enum PostgresReferenceCheck {
    /// The distinct values of a reference's column within one feed that no target row holds, with the
    /// rows that hold them, found the cheapest way the tables allow:
    ///
    /// - When the column is its table's group column and the table is in `groupsCover`, the table's
    ///   `feed_groups` rows are its distinct values with their row counts: the check reads those (195 k rows
    ///   for 5 M stop_times) instead of the table. A target likewise (the shapes of `trips.shape_id`: a hash
    ///   of their few thousand groups instead of a key lookup per trip).
    /// - Otherwise, when no target holds a row of the feed (a file imported alone), every value is missing,
    ///   and one grouping of the column counts them.
    /// - Otherwise the table's rows whose value no target row holds (a hash anti-join), then the distinct
    ///   values among those only: a feed whose references resolve never pays for a `DISTINCT` over a large
    ///   table (whose hash aggregate, misestimated, spilled for minutes).
    /// - Parameter groupsCover: the tables whose `feed_groups` rows of the feed are exactly their groups with
    ///   their row counts: loaded whole and digested by this import, no row rejected.
    /// - Returns: the finding, or `nil` when every value resolves.
    static func check(
        _ reference: ColumnReference, schema: String, feed: Int32, groupsCover: Set<GTFSFile>, connection: PostgresConnection
    ) throws(PostgresError) -> IntegrityFinding? {
        let table = "\(schema).\(reference.file.rawValue)", column = reference.column
        let byGroups = { (file: GTFSFile, column: String) in groupsCover.contains(file) && GroupedTables.column(for: file) == column }
        let groups = "\(schema).feed_groups"
        let resolves = { (value: String) in
            reference.targets.map { target in
                byGroups(target.file, target.column)
                    ? "NOT EXISTS (SELECT 1 FROM \(groups) t WHERE t.feed = \(feed) AND t.table_name = '\(target.file.rawValue)' AND t.group_key = \(value))"
                    : "NOT EXISTS (SELECT 1 FROM \(schema).\(target.file.rawValue) t WHERE t.feed = \(feed) AND t.\(target.column) = \(value))"
            }.joined(separator: " AND ")
        }
        // The missing values with their row counts, as (v, n), and the finding from them.
        let fromMissing = { (missing: String) in
            """
            WITH missing(v, n) AS MATERIALIZED (\(missing))
            SELECT count(*), coalesce(sum(n), 0), (SELECT string_agg(v, chr(31) ORDER BY v) FROM (SELECT v FROM missing ORDER BY v LIMIT 5) e)
            FROM missing
            """
        }
        let sql: String
        if byGroups(reference.file, column) {
            sql = fromMissing(
                """
                SELECT g.group_key, g.rows FROM \(groups) g
                WHERE g.feed = \(feed) AND g.table_name = '\(reference.file.rawValue)' AND \(resolves("g.group_key"))
                """)
        } else if try targetsEmpty(reference, schema: schema, feed: feed, connection: connection) {
            sql = fromMissing("SELECT \(column), count(*) FROM \(table) WHERE feed = \(feed) AND \(column) IS NOT NULL GROUP BY \(column)")
        } else {
            sql = """
                WITH missing_rows(v) AS MATERIALIZED (
                    SELECT s.\(column) FROM \(table) s WHERE s.feed = \(feed) AND s.\(column) IS NOT NULL AND \(resolves("s.\(column)"))),
                missing(v) AS MATERIALIZED (SELECT DISTINCT v FROM missing_rows)
                SELECT (SELECT count(*) FROM missing), (SELECT count(*) FROM missing_rows),
                    (SELECT string_agg(v, chr(31) ORDER BY v) FROM (SELECT v FROM missing ORDER BY v LIMIT 5) e)
                """
        }
        let rows = try connection.query(sql, [], "check \(reference.file.rawValue).\(column)")
        guard let row = rows.first, let values = row[0].flatMap({ Int($0) }), values > 0 else { return nil }
        return IntegrityFinding(
            file: reference.file, column: column, target: reference.targetDescription, rowCount: row[1].flatMap { Int($0) } ?? 0,
            valueCount: values, examples: (row[2] ?? "").split(separator: "\u{1F}").map(String.init))
    }

    /// Whether no target of `reference` holds a row of the feed.
    private static func targetsEmpty(
        _ reference: ColumnReference, schema: String, feed: Int32, connection: PostgresConnection
    ) throws(PostgresError) -> Bool {
        let rows = try connection.query(
            "SELECT " + reference.targets.map { "NOT EXISTS (SELECT 1 FROM \(schema).\($0.file.rawValue) WHERE feed = \(feed))" }
                .joined(separator: " AND "), [], "look at \(reference.targetDescription)")
        return rows.first?.first.flatMap({ $0 }) == "t"
    }
}
