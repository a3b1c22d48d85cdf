public import Dispatch
public import GTFS
public import GTFSStoreCore
import Foundation

/// GTFS feeds in a schema of a PostgreSQL database: the tables of every GTFS file (the same columns and
/// keys as the SQLite store, with PostgreSQL's types: ``PostgresColumnType``) and `feeds`, one row per feed.
///
/// ```swift
/// let store = try PostgresStore(connectionString: "postgresql:///gtfs", schema: "gtfs")
/// var options = ImportOptions()
/// options.feed = "vbb"
/// let summary = try store.importFeed(from: try FeedSource(path: "vbb.zip"), options: options)
/// print(summary.rowsStored, summary.changes)
/// ```
public final class PostgresStore {
    /// The schema that holds the tables (`gtfs`).
    public let schema: String
    /// Whether imports use PostGIS where the server has it (the default): the extension is created when
    /// missing, stops get a `geom` point and the view `shape_lines` a line per shape. Without PostGIS, or with this
    /// `false`, there are none; the summary notes when the server lacks it.
    public var usesPostGIS = true
    let connection: PostgresConnection
    /// The migrations of the schema's tables (``PostgresSchemaVersion``); tests add a made-up later one.
    package var migrations = PostgresSchemaVersion.migrations

    /// Connects to the server and checks the schema name.
    /// - Parameters:
    ///   - connectionString: libpq's connection URI or `key=value` string (as `psql` takes them: `PG*` variables, `~/.pgpass` and services apply).
    ///   - schema: the schema of the tables: lower-case letters, digits and `_`, not starting with a digit, at
    ///     most 63 bytes (PostgreSQL's limit).
    /// - Throws: ``PostgresError`` when the name is not allowed or the server cannot be reached or refuses.
    public init(connectionString: String, schema: String = "gtfs") throws(PostgresError) {
        if let problem = Self.identifierProblem(schema) {
            throw PostgresError(target: PostgresConnection.describe(connectionString), operation: "schema \(schema)", message: problem)
        }
        self.schema = schema
        connection = try PostgresConnection(connectionString)
    }

    /// Closes the connection.
    public func close() { connection.close() }

    /// Whether `text` names a PostgreSQL server rather than a file: a URI (`postgresql://…`,
    /// `postgres://…`) or libpq's `key=value` form whose first word is one of its keywords
    /// (`host=/run/postgresql dbname=gtfs`). A file of such a name is `./host=…`.
    /// - Parameter text: what a user gave as the database.
    /// - Returns: `true` for a connection string.
    public static func isConnectionString(_ text: String) -> Bool {
        if text.hasPrefix("postgresql://") || text.hasPrefix("postgres://") { return true }
        guard let equals = text.firstIndex(of: "=") else { return false }
        let keyword = text[..<equals].trimmingCharacters(in: .whitespaces)
        return connectionKeywords.contains(keyword)
    }

    /// libpq's connection keywords (libpq 17's list), as the first word of a `key=value` string.
    private static let connectionKeywords: Set<String> = [
        "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "require_auth", "channel_binding",
        "connect_timeout", "client_encoding", "options", "application_name", "fallback_application_name", "keepalives",
        "keepalives_idle", "keepalives_interval", "keepalives_count", "tcp_user_timeout", "replication", "gssencmode",
        "sslmode", "requiressl", "sslnegotiation", "sslcompression", "sslcert", "sslkey", "sslpassword", "sslcertmode",
        "sslrootcert", "sslcrl", "sslcrldir", "sslsni", "requirepeer", "ssl_min_protocol_version",
        "ssl_max_protocol_version", "krbsrvname", "gsslib", "gssdelegation", "service", "target_session_attrs",
        "load_balance_hosts",
    ]

    /// Cancels an import of this store from any thread (Ctrl-C, say): see ``PostgresCancel``.
    public var canceller: PostgresCancel { connection.canceller }

    /// The server and database, for messages, without a password.
    public var target: String { connection.target }

    /// Stores a feed under ``/GTFSStoreCore/ImportOptions/feed``, in one transaction: other connections see
    /// the old version until the commit, and a failure, a cancel or a lost connection leaves the database
    /// as it was.
    ///
    /// As in the SQLite store, a feed the schema already holds is updated incrementally (unless
    /// ``/GTFSStoreCore/ImportOptions/update`` is `.full`): files whose SHA-256 is unchanged are skipped, and
    /// each other file's rows are merged by key, so that only rows that differ are written. The same feed
    /// again writes nothing (``/GTFSStoreCore/ImportSummary/changedNothing``).
    ///
    /// Options of the SQLite store that do not apply here are refused: the batched mode
    /// (``/GTFSStoreCore/ImportOptions/Mode/batched(rowsPerCommit:)``) and
    /// ``/GTFSStoreCore/ImportOptions/changeHandler``.
    /// - Parameters:
    ///   - source: the feed.
    ///   - options: the feed's name, strictness, limits, incremental or full.
    ///   - progressQueue: where `progressHandler` runs.
    ///   - progressHandler: receives progress reports, a few per second at most.
    ///   - shouldContinue: asked between batches; `false` cancels the import.
    /// - Returns: what was stored, file by file, with the counts of inserted, updated, deleted and unchanged rows.
    /// - Throws: ``PostgresError`` from the server, ``/GTFS/GTFSError`` for the feed, ``/GTFSStoreCore/ImportError``
    ///   for an option or too many rejected rows, `CancellationError` when cancelled.
    public func importFeed(
        from source: FeedSource, options: ImportOptions = ImportOptions(), progressQueue: DispatchQueue = .main,
        progressHandler: (@Sendable (ImportProgress) -> Void)? = nil, shouldContinue: @escaping () -> Bool = { true }
    ) throws -> ImportSummary {
        try options.validate()
        if case .batched = options.mode {
            throw ImportError.invalidOption("mode: a PostgreSQL import is one transaction; batched commits are for SQLite")
        }
        if options.changeHandler != nil {
            throw ImportError.invalidOption("changeHandler: not reported by the PostgreSQL store")
        }
        let canceller = self.canceller
        if canceller.isRequested {
            canceller.reset()
            throw CancellationError()
        }
        let started = try connection.query("SELECT now()::text", [], "read the clock").first?.first.flatMap { $0 } ?? ""
        // Read committed whatever the server's default: a statement sees what others committed before it
        // (PostGIS created by a concurrent import, see PostGIS.enable).
        try connection.execute("BEGIN ISOLATION LEVEL READ COMMITTED", "begin a transaction")
        let reporter = progressHandler.map { ProgressReporter(queue: progressQueue, handler: $0, progress: Progress(totalUnitCount: 0)) }
        let run = PostgresImportRun(
            connection: connection, schema: schema, source: source, options: options, usesPostGIS: usesPostGIS, migrations: migrations,
            reporter: reporter,
            shouldContinue: { !canceller.isRequested && shouldContinue() })
        do {
            try lock(waiting: options.lockWait)
            let summary = try run.run(startedAt: started)
            if !summary.changedNothing { try options.runBeforeCommit() }
            // An import that changes nothing leaves no trace, not even a created schema.
            try connection.execute(summary.changedNothing ? "ROLLBACK" : "COMMIT", "commit")
            run.finished()
            return summary
        } catch {
            // The server's "canceling statement due to user request" is the cancel the caller asked for.
            let cancelled = canceller.isRequested || error is CancellationError
            canceller.reset()
            // The log of a failed import is written after the rollback, when the schema has its tables.
            let log = """
                INSERT INTO \(schema).imports (feed_name, source, started_at, ended_at, kind, outcome, message)
                VALUES (\(connection.literal(options.feed)), \(connection.literal(Self.describe(source))), \(connection.literal(started))::timestamptz,
                    now(), 'full', '\(cancelled ? "cancelled" : "failed")', \(connection.literal(String(describing: cancelled ? CancellationError() : error))))
                """
            if cancelled {
                // A cancel returns at once: the server rolls back while the caller goes on. A schema this
                // import created has no imports table once rolled back: no second connection for it.
                connection.abandonTransaction()
                if !run.createsSchema { connection.logAside(log) }
                throw CancellationError()
            }
            _ = try? connection.execute("ROLLBACK", "roll back")
            _ = try? connection.execute(log, "log the import")
            throw error
        }
    }

    /// The advisory lock that imports and removals of this schema hold, one at a time.
    private var lockKey: String { "gtfs-import:\(schema)" }

    /// Waits for other imports and removals of this schema to end (an advisory lock until the end of the
    /// transaction), at most `waiting` (`nil`: as long as it takes).
    private func lock(waiting: Duration?) throws {
        // lock_timeout takes at most 2^31 - 1 ms (24.8 days); a longer wait is no limit at all.
        let milliseconds = waiting.map { max(1, ($0 / .milliseconds(1)).rounded(.up)) }.flatMap { $0 < Double(Int32.max) ? Int($0) : nil }
        if let milliseconds { try connection.execute("SET LOCAL lock_timeout = \(milliseconds)", "set lock_timeout") }
        do {
            _ = try connection.query("SELECT pg_advisory_xact_lock(hashtext($1))", [lockKey], "wait for other imports")
        } catch {
            // lock_not_available: the wait ran out.
            if error.sqlState == "55P03" { throw ImportError.busy(path: "\(target) schema \(schema)") }
            throw error
        }
        if milliseconds != nil { try connection.execute("SET LOCAL lock_timeout = 0", "set lock_timeout") }
    }

    /// The rows of each table that hold any, for the feed named `feedName`.
    /// - Throws: ``PostgresError``.
    public func rowCounts(feed feedName: String = "default") throws(PostgresError) -> [GTFSFile: Int] {
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
    /// - Parameter feedName: the feed's name.
    /// - Returns: the rows deleted, or `nil` when the schema holds no such feed.
    /// - Throws: ``PostgresError``.
    @discardableResult
    public func remove(feed feedName: String) throws(PostgresError) -> Int? {
        guard try !feeds().isEmpty else { return nil }
        try connection.execute("BEGIN", "begin a transaction")
        do {
            _ = try connection.query("SELECT pg_advisory_xact_lock(hashtext($1))", [lockKey], "wait for other imports")
            let version = try PostgresSchemaVersion.stored(schema: schema, connection: connection)
            try PostgresSchemaVersion.migrate(schema: schema, from: version, migrations: migrations, connection: connection)
            guard let feed = try feedNumber(feedName) else {
                try connection.execute("ROLLBACK", "roll back")
                return nil
            }
            var removed = 0
            for file in GTFSFile.allCases { removed += try deleteRows(of: PostgresTable(file), feed: feed) }
            try PostgresTimetable.remove(schema: schema, feed: feed, connection: connection)
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

    @discardableResult
    private func deleteRows(of table: PostgresTable, feed: Int32) throws(PostgresError) -> Int {
        try connection.execute("DELETE FROM \(schema).\(table.name) WHERE feed = \(feed)", "delete the old rows of \(table.name)")
    }

    /// The source as `feeds.source` names it: its path, or `-` for standard input.
    static func describe(_ source: FeedSource) -> String {
        switch source {
        case .file(let path, _), .directory(let path), .zip(let path): path
        case .standardInput: "-"
        case .files(let paths): paths.joined(separator: " ")
        }
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

    /// Why `name` cannot stand in SQL unquoted and mean itself, or `nil` when it can: lower-case letters,
    /// digits and `_`, not starting with a digit, at most 63 bytes (PostgreSQL cuts a longer name, so two
    /// names would mean one schema).
    static func identifierProblem(_ name: String) -> String? {
        let plain = name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a") ... UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
        }
        guard let first = name.utf8.first, plain, !(UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(first) else {
            return "a schema name has lower-case letters, digits and _ only, and does not start with a digit"
        }
        guard name.utf8.count <= 63 else { return "a schema name has at most 63 bytes (PostgreSQL's limit), this one \(name.utf8.count)" }
        return nil
    }
}
