import GTFS

/// The reference checks of ``GTFS/ColumnReference/all`` in SQL, within one feed.
enum PostgresReferenceCheck {
    /// The values of a reference within one feed that no target row holds: first the distinct values,
    /// then a key lookup per value, and the rows that hold them counted only when some are missing.
    /// - Returns: the finding, or `nil` when every value resolves.
    static func check(
        _ reference: ColumnReference, schema: String, feed: Int32, connection: PostgresConnection
    ) throws(PostgresError) -> IntegrityFinding? {
        let table = "\(schema).\(reference.file.rawValue)", column = reference.column
        let resolves = reference.targets.map { target in
            "NOT EXISTS (SELECT 1 FROM \(schema).\(target.file.rawValue) t WHERE t.feed = \(feed) AND t.\(target.column) = used.v)"
        }
        let rows = try connection.query(
            """
            WITH used(v) AS MATERIALIZED (SELECT DISTINCT \(column) FROM \(table) WHERE feed = \(feed) AND \(column) IS NOT NULL),
            missing(v) AS MATERIALIZED (SELECT v FROM used WHERE \(resolves.joined(separator: " AND ")))
            SELECT (SELECT count(*) FROM missing),
                (SELECT count(*) FROM \(table) WHERE feed = \(feed) AND \(column) IN (SELECT v FROM missing)),
                (SELECT string_agg(v, chr(31) ORDER BY v) FROM (SELECT v FROM missing ORDER BY v LIMIT 5) e)
            """, [], "check \(reference.file.rawValue).\(column)")
        guard let row = rows.first, let values = row[0].flatMap({ Int($0) }), values > 0 else { return nil }
        return IntegrityFinding(
            file: reference.file, column: column, target: reference.targetDescription, rowCount: row[1].flatMap { Int($0) } ?? 0,
            valueCount: values, examples: (row[2] ?? "").split(separator: "\u{1F}").map(String.init))
    }
}
