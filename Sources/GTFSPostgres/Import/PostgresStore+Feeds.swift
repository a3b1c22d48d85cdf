import Foundation
public import GTFS
public import GTFSStoreCore

extension PostgresStore {
    /// The rows of each table that hold any, for the feed named `feedName`.
    /// - Throws: ``PostgresError``.
    public func rowCounts(feed feedName: String = "default") throws(PostgresError) -> [GTFSFile: Int] {
        try serially { () throws(PostgresError) -> [GTFSFile: Int] in try countRows(feed: feedName) }
    }

    private func countRows(feed feedName: String) throws(PostgresError) -> [GTFSFile: Int] {
        guard let feed = try feedNumber(feedName) else { return [:] }
        var counts: [GTFSFile: Int] = [:]
        for file in GTFSFile.allCases {
            let rows = try connection.query("SELECT count(*) FROM \(schema).\(file.rawValue) WHERE feed = $1", [String(feed)], "count \(file.rawValue)")
            if let count = rows.first?.first.flatMap({ $0 }).flatMap({ Int($0) }), count > 0 { counts[file] = count }
        }
        return counts
    }

    /// The feeds of the schema, by name, with their versions and row counts, as the SQLite store lists them.
    /// - Throws: ``PostgresError``; none when the schema holds no store yet (the list is then empty).
    public func feeds() throws(PostgresError) -> [StoredFeed] {
        try serially { () throws(PostgresError) -> [StoredFeed] in try listFeeds() }
    }

    /// The names of the schema's feeds, in order: at once, without counting rows; none when the schema
    /// holds no GTFS tables.
    public func feedNames() throws -> [String] {
        try read { reading in try reading.feedNames() }
    }

    private func listFeeds() throws(PostgresError) -> [StoredFeed] {
        let exists = try connection.query(
            "SELECT count(*) FROM pg_tables WHERE schemaname = $1 AND tablename IN ('feeds', 'stop_times')", [schema], "look for feeds")
        guard exists.first?.first.flatMap({ $0 }) == "2" else { return [] }
        var counts: [Int32: [GTFSFile: Int]] = [:]
        for file in GTFSFile.allCases {
            for row in try connection.query("SELECT feed, count(*) FROM \(schema).\(file.rawValue) GROUP BY feed", [], "count \(file.rawValue)") {
                if let feed = row[0].flatMap({ Int32($0) }), let count = row[1].flatMap({ Int($0) }) { counts[feed, default: [:]][file] = count }
            }
        }
        return try connection.query(
            """
            SELECT f.feed, f.name, f.content_hash, f.source, to_char(f.imported_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                f.import_id, (SELECT count(*) FROM \(schema).imports i WHERE i.feed_name = f.name)
            FROM \(schema).feeds f ORDER BY f.name
            """, [], "list the feeds"
        ).map { row in
            let feed = row[0].flatMap { Int32($0) } ?? 0
            return StoredFeed(
                id: Int64(feed), name: row[1] ?? "", contentHash: row[2], source: row[3], importedAt: row[4],
                importID: row[5].flatMap { Int64($0) }, rowCounts: counts[feed] ?? [:], importCount: row[6].flatMap { Int($0) } ?? 0)
        }
    }

    /// Deletes a feed with all its rows, in one transaction (its import history stays).
    /// - Parameters:
    ///   - feedName: the feed's name.
    ///   - lockWait: how long to wait for an import or removal of this schema; `nil`: as long as it takes.
    /// - Returns: the rows deleted, or `nil` when the schema holds no such feed.
    /// - Throws: ``PostgresError``; `ImportError.busy(path:)` when the wait ran out.
    @discardableResult
    public func removeFeed(named feedName: String, lockWait: Duration? = nil) throws -> Int? {
        try serially { () throws -> Int? in
            guard try !feedNames().isEmpty else { return nil }
            try connection.execute("BEGIN", "begin a transaction")
            do {
                try lock(waiting: lockWait)
                let version = try PostgresSchemaVersion.stored(schema: schema, connection: connection)
                let migrated = try PostgresSchemaVersion.migrate(schema: schema, from: version, migrations: migrations, connection: connection)
                guard let feed = try feedNumber(feedName) else {
                    try connection.execute(migrated ? "COMMIT" : "ROLLBACK", "end the transaction")
                    return nil
                }
                var removed = 0
                for file in GTFSFile.allCases { removed += try deleteRows(of: PostgresTable(file), feed: feed) }
                try PostgresTimetable.remove(schema: schema, feed: feed, connection: connection)
                for statement in RealtimeTables.deleteFeedStatements(name: { "\(schema).\($0)" }, placeholder: String(feed)) {
                    try connection.execute(statement, "remove the realtime state of feed \(feedName)")
                }
                try connection.execute(
                    """
                    DELETE FROM \(schema).feed_tables WHERE feed = \(feed); DELETE FROM \(schema).feed_groups WHERE feed = \(feed);
                    DELETE FROM \(schema).feeds WHERE feed = \(feed)
                    """,
                    "remove feed \(feedName)")
                try connection.execute("COMMIT", "commit")
                return removed
            } catch {
                _ = try? connection.execute("ROLLBACK", "roll back")
                throw error
            }
        }
    }

    @discardableResult
    private func deleteRows(of table: PostgresTable, feed: Int32) throws(PostgresError) -> Int {
        try connection.execute("DELETE FROM \(schema).\(table.name) WHERE feed = \(feed)", "delete the old rows of \(table.name)")
    }

    private func feedNumber(_ name: String) throws(PostgresError) -> Int32? {
        try Self.feedNumber(name, schema: schema, connection: connection)
    }

    /// The number of the feed named `name`, when the schema holds it.
    static func feedNumber(_ name: String, schema: String, connection: PostgresConnection) throws(PostgresError) -> Int32? {
        let rows = try connection.query("SELECT feed FROM \(schema).feeds WHERE name = $1", [name], "look up feed \(name)")
        return rows.first?.first.flatMap { $0 }.flatMap { Int32($0) }
    }

    /// The feed's content hash from its `feed_tables`, as the SQLite store computes it.
    static func contentHash(feed: Int32?, schema: String, connection: PostgresConnection) throws(PostgresError) -> String? {
        guard let feed else { return nil }
        let rows = try connection.query(
            "SELECT table_name, content_hash FROM \(schema).feed_tables WHERE feed = $1", [String(feed)], "read the tables' hashes")
        return FeedState.contentHash(tables: rows.map { ($0[0] ?? "", $0[1]) })
    }
}
