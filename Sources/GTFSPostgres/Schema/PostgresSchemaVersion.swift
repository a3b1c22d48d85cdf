import GTFS
import GTFSStoreCore

/// One change of a schema's tables from one version to the next: frozen once released, as the SQLite store's
/// migrations are, since the schemas it changes were written by the versions before it.
struct PostgresMigration: Sendable {
    /// The version the schema has after it.
    let version: Int
    /// Its statements, for the schema named.
    let statements: @Sendable (_ schema: String) -> [String]
    /// What it then does with each feed of the schema: fills a derived table the statements created.
    let eachFeed: (@Sendable (_ schema: String, _ feed: Int32, _ connection: PostgresConnection) throws(PostgresError) -> Void)?

    init(
        version: Int, statements: @escaping @Sendable (_ schema: String) -> [String],
        eachFeed: (@Sendable (_ schema: String, _ feed: Int32, _ connection: PostgresConnection) throws(PostgresError) -> Void)? = nil
    ) {
        self.version = version
        self.statements = statements
        self.eachFeed = eachFeed
    }
}

/// The version of a schema's tables, kept in its `gtfs_meta` table under `schema_version`. A schema this
/// build creates has the latest version; one an earlier version wrote is brought up to it by the
/// migrations after its own, on its first write (an import or a removal), inside that write's transaction.
/// A schema of a later version is refused rather than written wrongly.
///
/// Version 1 is the schema as versions before `gtfs_meta` wrote it: such a schema has `feeds` and no version.
enum PostgresSchemaVersion {
    /// The migrations from version 2 on, in order.
    static let migrations: [PostgresMigration] = [
        // 2: the name search's words and the stops' latitude index. The words are derived by the current
        // rule (StopNames), as an import derives them.
        PostgresMigration(
            version: 2,
            statements: { schema in
                [PostgresStopNames.createStatement(schema: schema)] + PostgresTimetable.indexStatements(schema: schema)
            },
            eachFeed: { schema, feed, connection throws(PostgresError) in
                try PostgresStopNames.fill(schema: schema, feed: feed, connection: connection)
            }),
        // 3: the kept changes of imports.
        PostgresMigration(version: 3) { schema in [PostgresFeedTables.changesStatement(schema: schema)] },
        // 4: network-wide windows: the stop times by departure second, the frequency runs' departures (the
        // views that read them are replaced by every import); the name words folded anew.
        PostgresMigration(
            version: 4,
            statements: { schema in
                let dialect = PostgresTimetable.dialect(schema)
                return [TimetableViews.frequencyDeparturesTable(dialect), TimetableViews.frequencyDeparturesIndex(dialect)]
                    + LookupIndex.all.filter { $0.name == "stop_times_departure" }.map { PostgresTimetable.indexStatement($0, schema: schema) }
            },
            eachFeed: { schema, feed, connection throws(PostgresError) in
                try connection.execute(
                    TimetableViews.fillFrequencyDepartures(PostgresTimetable.dialect(schema), feed: String(feed)), "fill frequency_departures")
                // The words folded by the current rule, which also turns `ø` into `o`.
                try connection.execute("DELETE FROM \(schema).stop_name_words WHERE feed = \(feed)", "refold the stops' names")
                try PostgresStopNames.fill(schema: schema, feed: feed, connection: connection)
            }),
        // 5: what lets an import skip a zip's unchanged file without inflating it, as the SQLite store does:
        // the CRC-32 the zip declared and the hash of its stored bytes (filled by the next import).
        PostgresMigration(version: 5) { schema in
            ["ALTER TABLE \(schema).feed_tables ADD COLUMN IF NOT EXISTS content_crc32 bigint, ADD COLUMN IF NOT EXISTS stored_hash text"]
        },
        // 6: the checks of feeds fetched from URLs (their validators; `FeedCheck`).
        PostgresMigration(version: 6) { schema in [FeedCheckTable.createStatement(table: "\(schema).feed_checks")] },
        // 7: the realtime state (RealtimeTables), kept by a build aside as the catalog is.
        PostgresMigration(version: 7) { schema in
            RealtimeTables.createStatements(name: { "\(schema).\($0)" }, text: PostgresTimetable.collatedText) + [PostgresTimetable.realtimeViewStatement(schema: schema)]
        },
    ]

    /// The latest version with `migrations`.
    static func latest(_ migrations: [PostgresMigration]) -> Int { migrations.last?.version ?? 1 }

    /// `gtfs_meta`, created when missing.
    static func createStatement(schema: String) -> String {
        "CREATE TABLE IF NOT EXISTS \(schema).gtfs_meta (key text PRIMARY KEY, value text NOT NULL)"
    }

    /// The version `schema` has: `nil` when it holds no `feeds` (a new schema).
    static func stored(schema: String, connection: PostgresConnection) throws(PostgresError) -> Int? {
        let tables = try connection.query(
            "SELECT count(*) FILTER (WHERE tablename = 'feeds'), count(*) FILTER (WHERE tablename = 'gtfs_meta') FROM pg_tables WHERE schemaname = $1",
            [schema], "look at schema \(schema)")
        guard tables.first?[0] != "0" else { return nil }
        guard tables.first?[1] != "0" else { return 1 }
        let rows = try connection.query(
            "SELECT value FROM \(schema).gtfs_meta WHERE key = 'schema_version'", [], "read the schema's version")
        return rows.first?.first.flatMap { $0 }.flatMap { Int($0) } ?? 1
    }

    /// Runs `statements` (the views and functions over the tables, and the tables they read) unless the
    /// schema's `gtfs_meta` records that it ran these very statements (their SHA-256 under `definitions`),
    /// or `always`. `CREATE OR REPLACE VIEW` locks the view against every reader until the commit: run at
    /// each import, it held the readers of `arrivals_departures` for the import's whole length.
    static func define(_ statements: [String], schema: String, always: Bool = false, connection: PostgresConnection) throws(PostgresError) {
        let text = statements.joined(separator: ";\n")
        let digest = ContentHasher.hash(text)
        if !always {
            let stored = try connection.query("SELECT value FROM \(schema).gtfs_meta WHERE key = 'definitions'", [], "read the definitions")
            if stored.first?.first.flatMap({ $0 }) == digest { return }
        }
        try connection.execute(text, "create the views")
        _ = try connection.query(
            """
            INSERT INTO \(schema).gtfs_meta (key, value) VALUES ('definitions', $1)
            ON CONFLICT (key) DO UPDATE SET value = excluded.value
            """, [digest], "record the definitions")
    }

    /// Brings `schema` from version `stored` to the latest of `migrations` and records it; a new schema
    /// (`stored` nil, its tables just created at the latest version) is only recorded.
    /// - Throws: ``PostgresError`` when the schema was written by a later version, or a statement fails.
    /// - Returns: whether a migration ran (the schema held an earlier version), which the transaction must
    ///   then commit even when it writes nothing else.
    @discardableResult
    static func migrate(
        schema: String, from stored: Int?, migrations: [PostgresMigration], connection: PostgresConnection
    ) throws(PostgresError) -> Bool {
        let latest = latest(migrations)
        if let stored, stored > latest {
            throw PostgresError(
                target: connection.target, operation: "schema \(schema)",
                message: "was written by a later version of gtfs-import (schema version \(stored); this one knows up to \(latest)); nothing was changed")
        }
        try connection.execute(createStatement(schema: schema), "create gtfs_meta")
        for migration in migrations where migration.version > (stored ?? latest) {
            let operation = "migrate schema \(schema) to version \(migration.version)"
            try connection.execute(migration.statements(schema).joined(separator: ";\n"), operation)
            guard let eachFeed = migration.eachFeed else { continue }
            for row in try connection.query("SELECT feed FROM \(schema).feeds ORDER BY feed", [], operation) {
                if let feed = row.first.flatMap({ $0 }).flatMap({ Int32($0) }) { try eachFeed(schema, feed, connection) }
            }
        }
        _ = try connection.query(
            """
            INSERT INTO \(schema).gtfs_meta (key, value) VALUES ('schema_version', $1)
            ON CONFLICT (key) DO UPDATE SET value = excluded.value
            """, [String(latest)], "record the schema's version")
        return (stored ?? latest) < latest
    }
}
