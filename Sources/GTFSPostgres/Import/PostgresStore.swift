public import GTFS

/// GTFS feeds in a schema of a PostgreSQL database: the tables of every GTFS file (the same columns and
/// keys as the SQLite store, with PostgreSQL's types: ``PostgresColumnType``) and `feeds`, one row per feed.
///
/// ```swift
/// let store = try PostgresStore(connectionString: "postgresql:///gtfs", schema: "gtfs")
/// let summary = try store.importFeed(from: try FeedSource(path: "vbb.zip"), named: "vbb")
/// print(summary.rowsStored)
/// ```
public final class PostgresStore {
    /// The schema that holds the tables (`gtfs`).
    public let schema: String
    let connection: PostgresConnection

    /// Connects to the server and checks the schema name.
    /// - Parameters:
    ///   - connectionString: libpq's connection URI or `key=value` string (see ``PostgresConnection``).
    ///   - schema: the schema of the tables: letters, digits and `_`, not starting with a digit.
    /// - Throws: ``PostgresError`` when the name is not allowed or the server cannot be reached or refuses.
    public init(connectionString: String, schema: String = "gtfs") throws(PostgresError) {
        guard Self.isPlainIdentifier(schema) else {
            throw PostgresError(
                target: PostgresConnection.describe(connectionString), operation: "schema \(schema)",
                message: "a schema name has lower-case letters, digits and _ only, and does not start with a digit")
        }
        self.schema = schema
        connection = try PostgresConnection(connectionString)
    }

    /// Closes the connection.
    public func close() { connection.close() }

    /// Cancels an import of this store from any thread (Ctrl-C, say): see ``PostgresCancel``.
    public var canceller: PostgresCancel { connection.canceller }

    /// The server and database, for messages, without a password.
    public var target: String { connection.target }

    /// Stores a feed as `feedName`, replacing what the schema held under that name, in one transaction:
    /// other connections see the old feed until the commit, and a failure leaves the database as it was.
    ///
    /// Into a schema without GTFS tables, the tables are created, loaded and keyed after the load (faster
    /// than checking each row against the key); otherwise rows go into the keyed tables.
    /// - Parameters:
    ///   - source: the feed.
    ///   - feedName: the feed's name in `feeds`.
    ///   - options: parse options.
    ///   - shouldContinue: asked between batches; `false` cancels the import.
    /// - Returns: what was stored, file by file.
    /// - Throws: ``PostgresError`` from the server (a duplicate key among them), ``GTFS/GTFSError`` for the
    ///   feed, `CancellationError` when cancelled.
    public func importFeed(
        from source: FeedSource, named feedName: String = "default", options: ParseOptions = ParseOptions(),
        shouldContinue: () -> Bool = { true }
    ) throws -> PostgresImportSummary {
        let started = try connection.query("SELECT now()::text", [], "read the clock").first?.first.flatMap { $0 } ?? ""
        try connection.execute("BEGIN", "begin a transaction")
        do {
            var options = options
            options.hashesContent = true
            let canceller = self.canceller
            let summary = try load(source, feedName, options, started: started) { !canceller.isRequested && shouldContinue() }
            try connection.execute("COMMIT", "commit")
            return summary
        } catch {
            _ = try? connection.execute("ROLLBACK", "roll back")
            // The server's "canceling statement due to user request" is the cancel the caller asked for.
            let error: any Error = canceller.isRequested ? CancellationError() : error
            canceller.reset()
            // The log of a failed import is written after the rollback, when the schema has its tables.
            _ = try? connection.query(
                """
                INSERT INTO \(schema).imports (feed_name, source, started_at, ended_at, kind, outcome, message)
                VALUES ($1, $2, $3::timestamptz, now(), 'full', $4, $5)
                """,
                [feedName, Self.describe(source), started, error is CancellationError ? "cancelled" : "failed", String(describing: error)],
                "log the import")
            throw error
        }
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

    /// The feeds of the schema, by name: when each was imported and from where.
    /// - Throws: ``PostgresError``; none when the schema holds no store yet (the list is then empty).
    public func feeds() throws(PostgresError) -> [(name: String, importedAt: String?, source: String?)] {
        let exists = try connection.query(
            "SELECT count(*) FROM pg_tables WHERE schemaname = $1 AND tablename = 'feeds'", [schema], "look for feeds")
        guard exists.first?.first.flatMap({ $0 }) == "1" else { return [] }
        return try connection.query("SELECT name, imported_at::text, source FROM \(schema).feeds ORDER BY name", [], "list the feeds")
            .map { row in (row[0] ?? "", row[1], row[2]) }
    }

    /// Deletes a feed with all its rows, in one transaction.
    /// - Parameter feedName: the feed's name.
    /// - Returns: whether the schema held the feed.
    /// - Throws: ``PostgresError``.
    @discardableResult
    public func remove(feed feedName: String) throws(PostgresError) -> Bool {
        guard try !feeds().isEmpty, let feed = try feedNumber(feedName) else { return false }
        try connection.execute("BEGIN", "begin a transaction")
        do {
            for file in GTFSFile.allCases { try deleteRows(of: PostgresTable(file), feed: feed) }
            try connection.execute(
                "DELETE FROM \(schema).feed_tables WHERE feed = \(feed); DELETE FROM \(schema).feeds WHERE feed = \(feed)",
                "remove feed \(feedName)")
            try connection.execute("COMMIT", "commit")
            return true
        } catch {
            _ = try? connection.execute("ROLLBACK", "roll back")
            throw error
        }
    }

    // MARK: - The import

    private func load(
        _ source: FeedSource, _ feedName: String, _ options: ParseOptions, started: String, _ shouldContinue: () -> Bool
    ) throws -> PostgresImportSummary {
        try connection.execute(
            (["CREATE SCHEMA IF NOT EXISTS \(schema)"] + PostgresFeedTables.createStatements(schema: schema)).joined(separator: ";\n"),
            "create schema \(schema)")
        let tables = GTFSFile.allCases.map(PostgresTable.init)
        let existing = try connection.query(
            "SELECT count(*) FROM pg_tables WHERE schemaname = $1 AND tablename = 'stop_times'", [schema], "look for the tables")
        let fresh = existing.first?.first.flatMap { $0 } == "0"
        if fresh {
            try connection.execute(tables.map { $0.createStatement(schema: schema) }.joined(separator: ";\n"), "create the tables")
        }
        // Keys and indexes are sorted in memory up to this size (the server's default is 64 MB) — for
        // this transaction only.
        try connection.execute("SET LOCAL maintenance_work_mem = '256MB'", "set maintenance_work_mem")
        let feed: Int32
        var rowsDeleted = 0
        let described = Self.describe(source)
        var unchanged: [GTFSFile: String] = [:]
        if let stored = try feedNumber(feedName) {
            feed = stored
            unchanged = try unchangedFiles(of: source, feed: feed, options: options, shouldContinue)
            // A whole feed replaces every table of the feed it does not hold unchanged; single files replace
            // their own tables, below.
            if source.isWholeFeed {
                for table in tables where unchanged[table.file] == nil { rowsDeleted += try deleteRows(of: table, feed: feed) }
                let kept = unchanged.keys.map { "'\($0.rawValue)'" }.joined(separator: ", ")
                try connection.execute(
                    "DELETE FROM \(schema).feed_tables WHERE feed = \(feed)" + (kept.isEmpty ? "" : " AND table_name NOT IN (\(kept))"),
                    "forget the old tables")
            }
            _ = try connection.query("UPDATE \(schema).feeds SET source = $2 WHERE feed = $1", [String(feed), described], "update feeds")
        } else {
            let rows = try connection.query(
                "INSERT INTO \(schema).feeds (feed, name, source) SELECT coalesce(max(feed), 0) + 1, $1, $2 FROM \(schema).feeds RETURNING feed",
                [feedName, described], "add feed \(feedName)")
            guard let number = rows.first?.first.flatMap({ $0 }).flatMap({ Int32($0) }) else {
                throw PostgresError(target: target, operation: "add feed \(feedName)", message: "the server returned no feed number")
            }
            feed = number
        }

        var summary = PostgresImportSummary(feed: feedName)
        summary.unchangedFiles = Set(unchanged.keys)
        let entries = Set(try source.entries().compactMap(\.table))
        if !unchanged.isEmpty && entries.subtracting(unchanged.keys).isEmpty && (!source.isWholeFeed || rowsDeleted == 0) {
            // Every file as stored: nothing to write, nothing to log.
            return summary
        }
        var options = options
        if !unchanged.isEmpty { options.tables = entries.subtracting(unchanged.keys) }
        var open: (table: PostgresTable, stream: CopyStream)?
        let parser = FeedParser(source: source, options: options)
        do {
            let parsed = try parser.parse(shouldContinue: shouldContinue) { batch in
                if open?.table.file != batch.file {
                    if let (table, stream) = open { summary.rowsStored[table.file] = try Self.finishBinary(stream) }
                    let table = PostgresTable(batch.file)
                    if !source.isWholeFeed { rowsDeleted += try deleteRows(of: table, feed: feed) }
                    let stream = try connection.beginCopy(table.copyStatement(schema: schema, freeze: fresh), "COPY \(table.name)")
                    open = (table, stream)
                    try stream.send(BinaryRowEncoder.header)
                }
                guard let (table, stream) = open else { return }
                let encoded = batch.accept(BatchEncoding(feed: feed, types: table.types))
                if let (column, value) = encoded.overflow {
                    let field = table.description.fields[column]
                    throw PostgresError(
                        target: target, operation: "COPY \(table.name)",
                        message: "\(batch.fileName): \(field.name): \(value) does not fit \(PostgresColumnType(field.type).sql)")
                }
                try stream.send(encoded.bytes)
            }
            if let (table, stream) = open {
                summary.rowsStored[table.file] = try Self.finishBinary(stream)
                open = nil
            }
            summary.parse = parsed
        } catch {
            open?.stream.abandon(because: "the import failed")
            throw error
        }
        if fresh {
            for table in tables where !table.keyStatements(schema: schema).isEmpty {
                let rejected = try addKey(table, file: summary.parse?.tables.first { $0.file == table.file }?.fileName ?? table.name)
                if !rejected.isEmpty {
                    summary.rejected[table.file] = rejected
                    summary.rowsStored[table.file, default: 0] -= rejected.count
                }
            }
        }
        for index in LookupIndex.all {
            try connection.execute(
                "CREATE INDEX IF NOT EXISTS \(index.name) ON \(schema).\(index.file.rawValue) (\(index.columns.joined(separator: ", ")))",
                "index \(index.name)")
        }
        // A whole feed replaced every table it does not hold unchanged; single files, their own.
        let touched = source.isWholeFeed ? Set(GTFSFile.allCases).subtracting(unchanged.keys) : Set(summary.rowsStored.keys)
        for reference in ColumnReference.all where reference.involves(touched) {
            if let finding = try check(reference, feed: feed) { summary.integrity.findings.append(finding) }
            summary.integrity.checksRun += 1
        }
        try record(summary, feed: feed, feedName: feedName, source: described, started: started, rowsDeleted: rowsDeleted)
        return summary
    }

    /// The values of a reference within one feed that no target row holds: first the distinct values,
    /// then a key lookup per value, and the rows that hold them counted only when some are missing.
    /// - Returns: the finding, or `nil` when every value resolves.
    private func check(_ reference: ColumnReference, feed: Int32) throws(PostgresError) -> IntegrityFinding? {
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

    /// The files of `source` whose content has the SHA-256 that `feed_tables` holds for the feed: read
    /// once more to hash them (a zip's CRC-32 is not compared here), skipped by the import.
    /// - Returns: each unchanged file's table and hash.
    private func unchangedFiles(
        of source: FeedSource, feed: Int32, options: ParseOptions, _ shouldContinue: () -> Bool
    ) throws -> [GTFSFile: String] {
        let rows = try connection.query(
            "SELECT table_name, content_hash FROM \(schema).feed_tables WHERE feed = $1 AND content_hash IS NOT NULL",
            [String(feed)], "read the stored hashes")
        var stored: [GTFSFile: String] = [:]
        for row in rows { if let name = row[0], let file = GTFSFile(rawValue: name), let hash = row[1] { stored[file] = hash } }
        var unchanged: [GTFSFile: String] = [:]
        var seen = Set<GTFSFile>()
        for entry in try source.entries() {
            guard let table = entry.table, seen.insert(table).inserted, entry.isRereadable, let storedHash = stored[table] else { continue }
            let hash = try entry.contentHash(chunkSize: options.chunkSize, maxLineLength: options.maxLineLength, shouldContinue: shouldContinue)
            if hash == storedHash { unchanged[table] = hash }
        }
        return unchanged
    }

    /// Adds the key of a table loaded without one. When rows repeat a key, the later ones (in load order)
    /// are deleted, named, and the key added again: a repeated key costs only the imports that have one.
    /// - Returns: the rows deleted, each as a message naming its key's values.
    private func addKey(_ table: PostgresTable, file: String) throws(PostgresError) -> [String] {
        let statements = table.keyStatements(schema: schema)
        try connection.execute("SAVEPOINT key", "key \(table.name)")
        do {
            for statement in statements { try connection.execute(statement, "key \(table.name)") }
            try connection.execute("RELEASE SAVEPOINT key", "key \(table.name)")
            return []
        } catch where error.sqlState == "23505" {
            try connection.execute("ROLLBACK TO SAVEPOINT key", "key \(table.name)")
        }
        // A table created in this transaction is only appended to, so ctid order is load order.
        let key = table.keyExpressions
        let deleted = try connection.query(
            """
            DELETE FROM \(schema).\(table.name) t USING (
                SELECT ctid, row_number() OVER (PARTITION BY \(key.joined(separator: ", ")), feed ORDER BY ctid) AS n
                FROM \(schema).\(table.name)) d
            WHERE t.ctid = d.ctid AND d.n > 1
            RETURNING \(key.map { "(\($0))::text" }.joined(separator: ", "))
            """, [], "remove repeated keys of \(table.name)")
        for statement in statements { try connection.execute(statement, "key \(table.name)") }
        let names = "(" + table.description.keyFields.map(\.name).joined(separator: ", ") + ")"
        return deleted.map { values in
            "\(file): \(names) = (\(values.map { "\"\($0 ?? "")\"" }.joined(separator: ", "))) repeats an earlier row; rejected"
        }
    }

    /// Ends a binary COPY: its trailer, then the end.
    private static func finishBinary(_ stream: CopyStream) throws(PostgresError) -> Int {
        try stream.send(BinaryRowEncoder.trailer)
        return try stream.finish()
    }

    /// Writes what the import stored: `feed_tables` per file, a row in `imports`, and the feed's
    /// `imported_at` and `import_id`.
    private func record(
        _ summary: PostgresImportSummary, feed: Int32, feedName: String, source: String, started: String, rowsDeleted: Int
    ) throws(PostgresError) {
        for table in summary.parse?.tables ?? [] {
            guard let file = table.file else { continue }
            let stored = summary.rowsStored[file] ?? 0
            let rejected = table.rowsRejected + (summary.rejected[file]?.count ?? 0)
            _ = try connection.query(
                """
                INSERT INTO \(schema).feed_tables (feed, table_name, content_hash, rows_read, rows_stored, rows_rejected)
                VALUES ($1, $2, $3, $4, $5, $6)
                ON CONFLICT (table_name, feed) DO UPDATE SET content_hash = excluded.content_hash,
                    rows_read = excluded.rows_read, rows_stored = excluded.rows_stored, rows_rejected = excluded.rows_rejected
                """,
                [String(feed), file.rawValue, table.contentHash, String(table.rowsRead), String(stored), String(rejected)],
                "record \(file.rawValue)")
        }
        let rows = try connection.query(
            """
            INSERT INTO \(schema).imports (feed_name, source, started_at, ended_at, kind, outcome, rows_inserted, rows_deleted,
                rows_rejected)
            VALUES ($1, $2, $3::timestamptz, clock_timestamp(), $7, 'completed', $4, $5, $6) RETURNING import_id
            """,
            [
                feedName, source, started, String(summary.rowsStored.values.reduce(0, +)), String(rowsDeleted),
                String(summary.rowsRejected), summary.unchangedFiles.isEmpty ? "full" : "incremental",
            ],
            "log the import")
        _ = try connection.query(
            "UPDATE \(schema).feeds SET imported_at = now(), import_id = $2 WHERE feed = $1",
            [String(feed), rows.first?.first.flatMap { $0 }], "update feeds")
    }

    @discardableResult
    private func deleteRows(of table: PostgresTable, feed: Int32) throws(PostgresError) -> Int {
        try connection.execute("DELETE FROM \(schema).\(table.name) WHERE feed = \(feed)", "delete the old rows of \(table.name)")
    }

    /// The source as `feeds.source` names it: its path, or `-` for standard input.
    private static func describe(_ source: FeedSource) -> String {
        switch source {
        case .file(let path, _), .directory(let path), .zip(let path): path
        case .standardInput: "-"
        case .files(let paths): paths.joined(separator: " ")
        }
    }

    private func feedNumber(_ name: String) throws(PostgresError) -> Int32? {
        let rows = try connection.query("SELECT feed FROM \(schema).feeds WHERE name = $1", [name], "look up feed \(name)")
        return rows.first?.first.flatMap { $0 }.flatMap { Int32($0) }
    }

    /// Whether `name` can stand in SQL unquoted and means itself: lower-case letters, digits and `_`, not
    /// starting with a digit, at most 63 bytes.
    static func isPlainIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= 63, !(UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(first) else { return false }
        return name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a") ... UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
        }
    }
}

/// Encodes one batch's records with their concrete type.
private struct BatchEncoding: RecordBatchVisitor {
    let feed: Int32
    let types: [PostgresColumnType]

    func visit<R: GTFSRecord>(_ records: [R]) -> (bytes: [UInt8], overflow: (column: Int, value: Int)?) {
        var encoder = BinaryRowEncoder(types: types)
        for record in records {
            encoder.beginRow(feed: feed)
            record.write(to: &encoder)
        }
        return (encoder.takeBytes(), encoder.overflow)
    }
}
