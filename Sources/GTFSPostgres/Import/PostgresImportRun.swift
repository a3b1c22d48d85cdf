import Foundation
import GTFS
import GTFSStoreCore
import Synchronization

/// One import into a schema, inside the caller's transaction: the schema made ready, the files that
/// changed parsed and sent with `COPY`, keys, indexes, reference checks, and the record of it.
///
/// Into a schema without GTFS tables, rows go straight into new tables (frozen), keyed after the load.
/// Into a schema that has them, each file's rows go into a staging table and are merged by key
/// (`StagedTable`): only rows that differ are written, as the SQLite store's diff writes them.
final class PostgresImportRun {
    private let connection: PostgresConnection
    private let schema: String
    private let source: FeedSource
    private let options: ImportOptions
    private let reporter: ProgressReporter?
    private let shouldContinue: () -> Bool
    private let usesPostGIS: Bool
    /// The schema's migrations (the store's: tests add a made-up later one).
    private let migrations: [PostgresMigration]
    /// PostGIS, when the server has it and the store uses it.
    private var postgis: PostGIS?
    /// Whether the schema held no tables: this import creates them all (`feed_groups` without its key until
    /// the digests are in), and a failed or cancelled one leaves no `imports` table to log in.
    private(set) var createsSchema = false
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var rowsStart: ContinuousClock.Instant?
    private var progress = ImportProgress()
    private var summary = ImportSummary()

    init(
        connection: PostgresConnection, schema: String, source: FeedSource, options: ImportOptions, usesPostGIS: Bool,
        migrations: [PostgresMigration], reporter: ProgressReporter?, shouldContinue: @escaping () -> Bool
    ) {
        self.usesPostGIS = usesPostGIS
        self.migrations = migrations
        self.connection = connection
        self.schema = schema
        self.source = source
        self.options = options
        self.reporter = reporter
        self.shouldContinue = shouldContinue
        start = clock.now
        summary.feed = options.feed
    }

    /// What one file's load gave.
    private struct Loaded {
        var changes = TableChanges()
        var rejected: [GTFSError] = []
        /// The groups of the rejected rows (grouped tables).
        var rejectedGroups: Set<String> = []
        var rowsSent = 0
        /// Whether the file's group digests were sent (a grouped file): into its temporary table, or into
        /// `feed_groups` when the import creates the schema.
        var digested = false
        /// The table of its groups' states, when they were compared with the stored ones.
        var states: String?
    }

    /// The file whose rows are being sent.
    private struct OpenFile {
        let table: PostgresTable
        let stream: CopyStream
        let staged: StagedTable?
        let layout: CopyLayout
        let fileName: String
        let began: ContinuousClock.Instant
        /// For a grouped file compared with the stored groups: the groups to send.
        let comparison: GroupComparison?
        /// For a grouped file sent whole: its digests, spooled until its `COPY` ends.
        var digests: GroupDigestEncoder?
        let spool: GroupSpool?
        var rows = 0
    }

    /// Runs the import; the caller commits, or rolls back when ``/GTFSStoreCore/ImportSummary/changedNothing``.
    /// - Parameter startedAt: the server's clock at the start, for `imports`.
    func run(startedAt: String) throws -> ImportSummary {
        let fresh = try prepareSchema()
        let tables = GTFSFile.allCases.map(PostgresTable.init)
        let described = source.storedDescription
        let existing = try PostgresStore.feedNumber(options.feed, schema: schema, connection: connection)
        let incremental = existing != nil && options.update == .automatic
        summary.kind = incremental ? .incremental : .full

        // What the schema holds of the feed, and which files are as it holds them: the SQLite store's plan.
        let entries = try source.entries()
        let stored = try existing.map(storedState(feed:))
        var plan = ImportPlan(
            imported: Set(entries.compactMap(\.table)), existing: stored, incremental: incremental, replaceAll: source.isWholeFeed)
        if let stored, incremental {
            report(.hashing)
            let hashStart = clock.now
            try plan.findUnchangedFiles(in: source, stored: stored, options: options.parseOptions, shouldContinue: shouldContinue)
            summary.hashDuration = clock.now - hashStart
        }
        let unchanged = plan.unchanged
        summary.replacedTables = plan.replaced
        if plan.isNoChange {
            summary.changedNothing = true
            summary.tables = plan.unchangedImports()
            summary.contentHash = stored?.contentHash
            summary.duration = clock.now - start
            return summary
        }

        let feed: Int32
        var deleted: [GTFSFile: Int] = [:]
        if let existing {
            feed = existing
            _ = try connection.query("UPDATE \(schema).feeds SET source = $2 WHERE feed = $1", [String(feed), described], "update feeds")
            let emptied = incremental ? plan.removed : Set(plan.replaced).subtracting(unchanged.keys)
            if !emptied.isEmpty {
                report(.removingRows)
                try PostgresGroups.forget(emptied, schema: schema, feed: feed, connection: connection)
                for table in tables where emptied.contains(table.file) {
                    let count = try connection.execute(
                        "DELETE FROM \(schema).\(table.name) WHERE feed = \(feed)", "delete the old rows of \(table.name)")
                    if count > 0 { deleted[table.file] = count }
                }
            }
        } else {
            let rows = try connection.query(
                "INSERT INTO \(schema).feeds (feed, name, source) SELECT coalesce(max(feed), 0) + 1, $1, $2 FROM \(schema).feeds RETURNING feed",
                [options.feed, described], "add feed \(options.feed)")
            guard let number = rows.first?.first.flatMap({ $0 }).flatMap({ Int32($0) }) else {
                throw PostgresError(target: connection.target, operation: "add feed \(options.feed)", message: "the server returned no feed number")
            }
            feed = number
        }

        // The files that changed, each sent with COPY as it is parsed; of a grouped file that the feed held,
        // only the groups that differ (read once before, to digest them).
        var parseOptions = options.parseOptions
        parseOptions.tables = incremental ? plan.tablesToParse : nil
        var comparisons: [GTFSFile: GroupComparison] = [:]
        if incremental {
            let rereadable = Set(entries.filter(\.isRereadable).compactMap(\.table))
            for file in GTFSFile.loadOrder where rereadable.contains(file) && unchanged[file] == nil {
                comparisons[file] = try compareGroups(file, feed: feed)
            }
        }
        var loaded: [GTFSFile: Loaded] = [:]
        /// Per file loaded, whether each column held a value in a row.
        var filled: [GTFSFile: [Bool]] = [:]
        var open: OpenFile?
        let loadStart = clock.now
        rowsStart = loadStart
        func finishFile() throws {
            guard let current = open else { return }
            open = nil
            try current.stream.send(current.layout.format.trailer)
            let sent = try current.stream.finish()
            var result = Loaded(rowsSent: sent)
            if let staged = current.staged {
                let merged = try staged.merge(staged: sent, fileName: current.fileName, within: current.comparison)
                (result.changes, result.rejected, result.rejectedGroups) = (merged.changes, merged.rejected, merged.rejectedGroups)
            } else {
                result.changes.inserted = sent
            }
            result.digested = current.comparison != nil || current.digests != nil
            result.states = current.comparison?.states
            if var digests = current.digests, let spool = current.spool {
                try spool.append(digests.finish())
                let stream = try createsSchema
                    ? PostgresGroups.beginCopyIntoNewTable(current.table, schema: schema, connection: connection)
                    : PostgresGroups.beginCopy(current.table, connection: connection)
                try spool.send(into: stream)
                _ = try stream.finish()
            }
            loaded[current.table.file] = result
            progress.finishedFiles.append(
                ImportProgress.FinishedFile(
                    fileName: current.fileName, table: current.table.file, rows: current.rows - result.rejected.count,
                    duration: clock.now - current.began))
        }
        report(.loading)
        // The parse and the encoding run on a thread of their own, a few batches ahead, while this one
        // sends: the server's COPY and the client's work overlap (one thread did both in turn, and the
        // server waited for it).
        let parser = FeedParser(source: source, options: parseOptions)
        let changedGroups = comparisons.mapValues(\.changed)
        let digested = Set(GTFSFile.allCases.filter { comparisons[$0] == nil && GroupedTables.column(for: $0) != nil })
        let feedNumber = feed
        let latest = Mutex<FeedProgress?>(nil)
        // Each file's format and columns, chosen on its first batch; the parse thread alone uses them.
        let layouts = Mutex<[GTFSFile: CopyLayout]>([:])
        let channel = parser.stream(
            maxBatchesInFlight: options.maxBatchesInFlight, progress: { state in latest.withLock { $0 = state } }
        ) { batch in
            let encoded = EncodedBatch(
                batch, feed: feedNumber, changedGroups: changedGroups[batch.file], digested: digested.contains(batch.file),
                layout: layouts.withLock { $0[batch.file] })
            layouts.withLock { $0[batch.file] = encoded.layout }
            return encoded
        }
        let parsed: FeedSummary
        do {
            receiving: while true {
                guard shouldContinue() else { throw CancellationError() }
                switch channel.next() {
                case .closed: throw CancellationError()
                case .end(let result):
                    parsed = try result.get()
                    break receiving
                case .item(let item):
                    let batch = item.batch
                    if open?.table.file != batch.file {
                        try finishFile()
                        let table = PostgresTable(batch.file)
                        let staged = fresh ? nil : try StagedTable(table, schema: schema, feed: feed, connection: connection)
                        let layout = item.layout
                        let stream = try connection.beginCopy(
                            staged?.copyStatement(format: layout.format, sent: layout.sent)
                                ?? table.copyStatement(schema: schema, freeze: true, format: layout.format, sent: layout.sent),
                            "COPY \(table.name)")
                        let grouped = digested.contains(batch.file)
                        open = OpenFile(
                            table: table, stream: stream, staged: staged, layout: layout, fileName: batch.fileName, began: clock.now,
                            comparison: comparisons[batch.file], digests: grouped ? GroupDigestEncoder(feed: feed, table: table) : nil,
                            spool: grouped ? try GroupSpool() : nil)
                        progress.table = batch.file
                        try stream.send(layout.format.header)
                    }
                    guard var current = open else { continue }
                    if let spool = current.spool, let runs = item.runs, current.digests != nil {
                        try spool.append(current.digests?.add(runs, of: batch) ?? [])
                    }
                    current.rows += batch.count
                    open = current
                    if let (column, value) = item.overflow {
                        let field = current.table.description.fields[column]
                        throw GTFSError(
                            .invalidValue, file: batch.fileName, line: batch.lines.first, column: field.name,
                            message: "\(value) does not fit PostgreSQL's \(PostgresColumnType(field.type).sql)")
                    }
                    if let column = item.unsent {
                        // A field whose column the header lacks holds no value or its default (see `sentColumns`).
                        throw GTFSError(
                            .invalidValue, file: batch.fileName, line: batch.lines.first, column: current.table.description.fields[column].name,
                            message: "holds a value without a column in the file, which the store cannot send (a bug: please report it)")
                    }
                    try current.stream.send(item.bytes)
                    filled[batch.file] = zip(filled[batch.file] ?? item.filled, item.filled).map { $0 || $1 }
                    progress.rowsByTable[batch.file, default: 0] += batch.count
                    if let state = latest.withLock({ $0 }) { offerLoading(state) }
                }
            }
            try finishFile()
        } catch {
            channel.close()
            open?.stream.abandon(because: "the import failed")
            throw error
        }
        if fresh {
            report(.buildingIndexes)
            for table in tables {
                let fileName = parsed.table(table.file)?.fileName ?? table.file.fileName
                let rejected = try PostgresKeys.addKey(to: table, schema: schema, fileName: fileName, connection: connection)
                if !rejected.errors.isEmpty {
                    loaded[table.file]?.rejected += rejected.errors
                    loaded[table.file]?.rejectedGroups.formUnion(rejected.groups)
                    loaded[table.file]?.changes.inserted -= rejected.errors.count
                }
            }
        }
        // A file given without rows empties its table.
        for table in parsed.tables where incremental {
            guard let file = table.file, loaded[file] == nil else { continue }
            let count = try connection.execute("DELETE FROM \(schema).\(file.rawValue) WHERE feed = \(feed)", "empty \(file.rawValue)")
            loaded[file] = Loaded(changes: TableChanges(deleted: count))
            try PostgresGroups.forget([file], schema: schema, feed: feed, connection: connection)
        }
        // The digests of every grouped file loaded, without those of groups that lost a row to a repeated key.
        for (file, load) in loaded where load.digested {
            if createsSchema {
                try PostgresGroups.recordSent(PostgresTable(file), schema: schema, feed: feed, invalid: load.rejectedGroups, connection: connection)
            } else {
                try PostgresGroups.record(
                    PostgresTable(file), schema: schema, feed: feed, invalid: load.rejectedGroups, states: load.states, connection: connection)
            }
        }
        if createsSchema { try PostgresGroups.addKey(schema: schema, connection: connection) }
        summary.loadDuration = clock.now - loadStart

        // The per-file results, and the limit on rejected rows.
        var parsedTables: [TableImport] = []
        var changes = deleted.mapValues { TableChanges(deleted: $0) }
        for table in parsed.tables {
            guard let file = table.file else { continue }
            let load = loaded[file] ?? Loaded()
            var result = TableImport(fileName: table.fileName, file: file)
            result.rowsRead = table.rowsRead
            result.rowsRejected = table.rowsRejected + load.rejected.count
            result.rowsStored = table.rowsRead - result.rowsRejected
            result.errors = Array((table.errors + load.rejected).prefix(options.maxStoredErrors))
            result.warnings = table.warnings
            result.warningCount = table.warningCount
            result.bytesRead = table.bytesRead
            result.contentHash = table.contentHash
            guard options.maxRejected.allows(rejected: result.rowsRejected, of: result.rowsRead) else {
                throw ImportError.tooManyRejected(
                    file: result.fileName, rejected: result.rowsRejected, read: result.rowsRead, limit: options.maxRejected,
                    first: result.errors.first)
            }
            parsedTables.append(result)
            changes[file, default: TableChanges()] = changes[file, default: TableChanges()] + load.changes
        }
        summary.tables = plan.summaryTables(parsedTables, changes: changes)
        // Statistics of the tables whose rows changed by a tenth or more, for the timetable's and the checks'
        // queries and the first queries of users: without them the planner guesses, and sorted a 5 M-row
        // table where a hash took a quarter of the time. Smaller changes leave them to autovacuum.
        // feed_groups too when a file's digests were written whole (the checks of group columns read it).
        // A table larger than the usual sample (30,000 rows) whose changes pass autovacuum's default threshold
        // (50 rows and a tenth) is analyzed from a tenth of that sample, at about a tenth of the cost: enough
        // for these plans, and autovacuum analyzes it again with the server's own target after the commit.
        var analyzed: [String] = [], sampled: [String] = []
        for table in summary.tables {
            let changed = table.changes.inserted + table.changes.updated + table.changes.deleted
            let before = table.rowsStored + table.changes.deleted
            guard changed > 0 && changed * 10 >= before else { continue }
            let large = table.rowsStored > 30_000 && changed >= 50 + before / 10
            if large { sampled.append("\(schema).\(table.file.rawValue)") } else { analyzed.append("\(schema).\(table.file.rawValue)") }
        }
        if loaded.values.contains(where: { $0.digested && $0.states == nil }) { sampled.append("\(schema).feed_groups") }
        if !analyzed.isEmpty { try connection.execute("ANALYZE " + analyzed.joined(separator: ", "), "analyze") }
        if !sampled.isEmpty {
            try connection.execute(
                "SET LOCAL default_statistics_target = 10; ANALYZE \(sampled.joined(separator: ", ")); SET LOCAL default_statistics_target TO DEFAULT",
                "analyze")
        }
        summary.warnings = parsed.warnings
        summary.skippedFiles = parsed.skippedFiles
        summary.bytesRead = parsed.bytesRead

        // As in the SQLite store: a full import rebuilds and checks what it replaced; an incremental one, what it changed.
        let touched = incremental ? Set(summary.tables.filter { !$0.changes.isEmpty }.map(\.file)) : Set(summary.replacedTables)
        summary.warnings += try PostgresTimetable.update(schema: schema, feed: feed, changed: touched, connection: connection)
        if postgis == nil, usesPostGIS, !touched.isDisjoint(with: [.stops, .shapes]) {
            summary.warnings.append(PostGIS.unavailable)
        }

        let indexStart = clock.now
        report(.buildingIndexes)
        for index in LookupIndex.all {
            try connection.execute(
                "CREATE INDEX IF NOT EXISTS \(index.name) ON \(schema).\(index.file.rawValue) (\(index.columns.joined(separator: ", ")))",
                "index \(index.name)")
        }
        for statement in PostgresTimetable.indexStatements(schema: schema) { try connection.execute(statement, "index the stops") }
        try postgis?.createIndexes(schema: schema, connection: connection)
        summary.indexDuration = clock.now - indexStart

        if options.checksReferences {
            report(.checkingReferences)
            let groupsCover = Set(loaded.filter { $0.value.digested && $0.value.states == nil && $0.value.rejected.isEmpty }.keys)
            let checkStart = clock.now
            for reference in ColumnReference.all where reference.involves(touched) {
                guard shouldContinue() else { throw CancellationError() }
                // A table loaded whole by this import whose column held no value refers to nothing.
                if !incremental, let column = reference.file.table.fields.firstIndex(where: { $0.name == reference.column }),
                    filled[reference.file]?[column] == false
                {
                    summary.integrity.checksRun += 1
                    continue
                }
                if let finding = try PostgresReferenceCheck.check(
                    reference, schema: schema, feed: feed, groupsCover: groupsCover, connection: connection)
                {
                    summary.integrity.findings.append(finding)
                }
                summary.integrity.checksRun += 1
            }
            summary.integrityDuration = clock.now - checkStart
        }
        try record(feed: feed, source: described, startedAt: startedAt)
        report(.committing)
        summary.duration = clock.now - start
        return summary
    }

    /// Reads a grouped file once to digest its groups, and compares them with the stored ones in SQL.
    /// - Returns: the groups to send and the rows of the others; `nil` when the whole file is to be sent: the
    ///   file is not grouped, the store has no digests for it, or more than a quarter of its groups changed.
    private func compareGroups(_ file: GTFSFile, feed: Int32) throws -> GroupComparison? {
        guard let column = GroupedTables.column(for: file) else { return nil }
        let table = PostgresTable(file)
        let stored = try connection.query(
            "SELECT count(*) FROM \(schema).feed_groups WHERE feed = \(feed) AND table_name = $1 AND digest_a IS NOT NULL", [table.name],
            "look for the groups of \(table.name)")
        guard stored.first?.first.flatMap({ $0 }).flatMap({ Int($0) }) ?? 0 > 0 else { return nil }
        report(.hashing)
        var only = options.parseOptions
        only.tables = [file]
        only.hashesContent = false
        let stream = try PostgresGroups.beginCopy(table, connection: connection)
        var digests = GroupDigestEncoder(feed: feed, table: table)
        do {
            try FeedParser(source: source, options: only).parse(shouldContinue: shouldContinue) { batch in
                try stream.send(digests.add(GroupRun.split(batch), of: batch))
            }
            try stream.send(digests.finish())
            _ = try stream.finish()
        } catch {
            stream.abandon(because: "the import failed")
            throw error
        }
        let states = "gtfs_group_states_\(table.name)"
        // Table names are the file enumeration's, safe to write into the statement.
        try connection.execute(
            """
            DROP TABLE IF EXISTS pg_temp.\(states);
            CREATE TEMPORARY TABLE \(states) ON COMMIT DROP AS
            SELECT group_key, n.rows,
                CASE WHEN n.group_key IS NULL THEN 2
                    WHEN n.parts = 1 AND o.digest_a = n.digest_a AND o.digest_b = n.digest_b AND o.rows = n.rows THEN 0 ELSE 1 END AS state
            FROM (SELECT group_key, count(*) AS parts, min(digest_a) AS digest_a, min(digest_b) AS digest_b, sum(rows) AS rows
                  FROM \(PostgresGroups.newGroupsTable(table)) GROUP BY group_key) n
            FULL JOIN (SELECT group_key, digest_a, digest_b, rows FROM \(schema).feed_groups WHERE feed = \(feed) AND table_name = '\(table.name)') o
                USING (group_key)
            """, "compare the groups of \(table.name)")
        let totals = try connection.query(
            """
            SELECT count(*) FILTER (WHERE state = 1), count(*) FILTER (WHERE state <> 2), coalesce(sum(rows) FILTER (WHERE state = 0), 0)
            FROM pg_temp.\(states)
            """, [], "count the changed groups of \(table.name)")
        let changedCount = totals.first?[0].flatMap { Int($0) } ?? 0
        let groupCount = totals.first?[1].flatMap { Int($0) } ?? 0
        // Past a quarter of the groups changed, sending the whole file costs less than picking its groups.
        guard changedCount * 4 <= groupCount else { return nil }
        let keys = try connection.query("SELECT group_key FROM pg_temp.\(states) WHERE state = 1", [], "read the changed groups")
        return GroupComparison(
            column: column, states: "pg_temp.\(states)", changed: Set(keys.compactMap { $0.first.flatMap { $0 } }),
            unchangedRows: totals.first?[2].flatMap { Int($0) } ?? 0)
    }

    /// The schema made ready: refused when it holds tables and no `feeds`; the feed tables created when
    /// missing, and the GTFS tables too (without keys, for the load).
    /// - Returns: whether the GTFS tables are new (created in this transaction).
    private func prepareSchema() throws -> Bool {
        let held = try connection.query(
            "SELECT count(*), count(*) FILTER (WHERE tablename = 'feeds') FROM pg_tables WHERE schemaname = $1", [schema],
            "look at schema \(schema)")
        let tableCount = held.first?[0].flatMap { Int($0) } ?? 0
        createsSchema = tableCount == 0
        if tableCount > 0 && held.first?[1] == "0" {
            throw PostgresError(
                target: connection.target, operation: "schema \(schema)",
                message: "holds \(tableCount) table\(tableCount == 1 ? "" : "s") of something else (no feeds table); give another --schema")
        }
        let version = createsSchema ? nil : try PostgresSchemaVersion.stored(schema: schema, connection: connection)
        try connection.execute(
            (["CREATE SCHEMA IF NOT EXISTS \(schema)"] + PostgresFeedTables.createStatements(schema: schema, groupsKeyed: tableCount > 0))
                .joined(separator: ";\n"),
            "create schema \(schema)")
        let existing = try connection.query(
            "SELECT count(*) FROM pg_tables WHERE schemaname = $1 AND tablename = 'stop_times'", [schema], "look for the tables")
        let fresh = existing.first?.first.flatMap { $0 } == "0"
        if fresh {
            let tables = GTFSFile.allCases.map(PostgresTable.init)
            try connection.execute(tables.map { $0.createStatement(schema: schema) }.joined(separator: ";\n"), "create the tables")
        }
        try PostgresSchemaVersion.migrate(schema: schema, from: version, migrations: migrations, connection: connection)
        try connection.execute(PostgresTimetable.createStatements(schema: schema).joined(separator: ";\n"), "create the timetable")
        if usesPostGIS, let postgis = try PostGIS.enable(connection: connection) {
            try postgis.addColumns(schema: schema, connection: connection)
            self.postgis = postgis
        }
        // For this transaction only: keys and indexes sorted in memory up to 256 MB (the server's default
        // is 64 MB); hash joins and aggregates up to 64 MB (default 4 MB), so that the reference checks'
        // hashes of a large feed's ids stay in memory.
        try connection.execute("SET LOCAL maintenance_work_mem = '256MB'; SET LOCAL work_mem = '64MB'", "set the memory")
        return fresh
    }

    /// What `feed_tables` holds of the feed, and which tables hold its rows, as the SQLite store's plan reads it.
    private func storedState(feed: Int32) throws(PostgresError) -> FeedState {
        var tables: [GTFSFile: TableState] = [:]
        for row in try connection.query(
            "SELECT table_name, content_hash, rows_read, rows_stored, rows_rejected FROM \(schema).feed_tables WHERE feed = $1",
            [String(feed)], "read the stored tables")
        {
            guard let name = row[0], let file = GTFSFile(rawValue: name) else { continue }
            tables[file] = TableState(
                contentHash: row[1], rowsRead: Int(row[2] ?? "") ?? 0, rowsStored: Int(row[3] ?? "") ?? 0, rowsRejected: Int(row[4] ?? "") ?? 0)
        }
        let holding = GTFSFile.allCases.map { "SELECT '\($0.rawValue)' WHERE EXISTS (SELECT 1 FROM \(schema).\($0.rawValue) WHERE feed = \(feed))" }
        let withRows = try connection.query(holding.joined(separator: " UNION ALL "), [], "look for the feed's rows")
        let feedRow = try connection.query("SELECT import_id, content_hash FROM \(schema).feeds WHERE feed = $1", [String(feed)], "read the feed")
        return FeedState(
            id: Int64(feed), importID: feedRow.first?[0].flatMap { Int64($0) }, contentHash: feedRow.first?[1], tables: tables,
            tablesWithRows: Set(withRows.compactMap { $0.first.flatMap { $0 }.flatMap(GTFSFile.init(rawValue:)) }))
    }

    /// Writes what the import stored: `feed_tables` per file, a row in `imports`, and the feed's version.
    private func record(feed: Int32, source: String, startedAt: String) throws(PostgresError) {
        for table in summary.tables where !table.isUnchangedFile {
            guard table.contentHash != nil || table.rowsRead > 0 else { continue }
            _ = try connection.query(
                """
                INSERT INTO \(schema).feed_tables (feed, table_name, content_hash, rows_read, rows_stored, rows_rejected)
                VALUES ($1, $2, $3, $4, $5, $6)
                ON CONFLICT (table_name, feed) DO UPDATE SET content_hash = excluded.content_hash,
                    rows_read = excluded.rows_read, rows_stored = excluded.rows_stored, rows_rejected = excluded.rows_rejected
                """,
                [String(feed), table.file.rawValue, table.contentHash, String(table.rowsRead), String(table.rowsStored), String(table.rowsRejected)],
                "record \(table.file.rawValue)")
        }
        if self.source.isWholeFeed {
            // A whole feed's tables are those it gave.
            let kept = summary.tables.filter { $0.contentHash != nil || $0.isUnchangedFile }.map { "'\($0.file.rawValue)'" }
            try connection.execute(
                "DELETE FROM \(schema).feed_tables WHERE feed = \(feed)" + (kept.isEmpty ? "" : " AND table_name NOT IN (\(kept.joined(separator: ", ")))"),
                "forget the old tables")
        }
        let contentHash = try PostgresStore.contentHash(feed: feed, schema: schema, connection: connection)
        summary.contentHash = contentHash
        let changes = summary.changes
        let rows = try connection.query(
            """
            INSERT INTO \(schema).imports (feed_name, source, content_hash, started_at, ended_at, kind, outcome,
                rows_inserted, rows_updated, rows_deleted, rows_unchanged, rows_rejected)
            VALUES ($1, $2, $3, $4::timestamptz, clock_timestamp(), $5, 'completed', $6, $7, $8, $9, $10) RETURNING import_id
            """,
            [
                options.feed, source, contentHash, startedAt, summary.kind.rawValue, String(changes.inserted), String(changes.updated),
                String(changes.deleted), String(changes.unchanged), String(summary.rowsRejected),
            ],
            "log the import")
        summary.importID = rows.first?.first.flatMap { $0 }.flatMap { Int64($0) }
        _ = try connection.query(
            "UPDATE \(schema).feeds SET imported_at = now(), import_id = $2, content_hash = $3 WHERE feed = $1",
            [String(feed), summary.importID.map(String.init), contentHash], "update feeds")
    }

    /// A phase change, for the progress handler.
    private func report(_ phase: ImportProgress.Phase) {
        progress.phase = phase
        offer()
    }

    /// The parser's progress while loading.
    private func offerLoading(_ parsed: FeedProgress) {
        progress.fileName = parsed.fileName
        progress.bytesRead = parsed.bytesRead
        progress.totalBytes = parsed.totalBytes
        offer()
    }

    private func offer() {
        guard let reporter else { return }
        let now = clock.now
        progress.elapsed = now - start
        progress.loadingElapsed = rowsStart.map { now - $0 } ?? .zero
        reporter.offer(progress)
    }

    /// The last report: the import is done.
    func finished() {
        report(.finished)
    }
}

/// How a file's rows go to the server: the format and the columns named, chosen on its first batch.
private struct CopyLayout: Sendable {
    let format: CopyFormat
    /// For each field, whether the `COPY` names it (``PostgresTable/sentColumns(inHeader:)``).
    let sent: [Bool]
}

/// A batch as the parse thread hands it over: its rows encoded for `COPY` (all of them, or those of the
/// groups to send) in its file's layout, which columns held values, and its group runs when the file is
/// digested.
private struct EncodedBatch: Sendable {
    let batch: RecordBatch
    let layout: CopyLayout
    let bytes: [UInt8]
    let overflow: (column: Int, value: Int)?
    /// The first column that held a value although it is not sent.
    let unsent: Int?
    let filled: [Bool]
    let runs: [GroupRun]?

    /// - Parameters:
    ///   - changedGroups: for a file compared group by group, the groups whose rows are sent.
    ///   - digested: whether the file's group digests are recorded (then `runs` holds the batch's runs).
    ///   - layout: the file's layout; `nil` for its first batch, which chooses it from its header and rows.
    init(_ batch: RecordBatch, feed: Int32, changedGroups: Set<String>?, digested: Bool, layout: CopyLayout?) {
        self.batch = batch
        var ranges: [Range<Int>]?
        var runs: [GroupRun]?
        if changedGroups != nil || digested {
            let split = GroupRun.split(batch)
            if let changedGroups { ranges = split.filter { run in run.key.map(changedGroups.contains) ?? true }.map(\.range) }
            if digested { runs = split }
        }
        self.runs = runs
        let table = PostgresTable(batch.file)
        let types = table.types
        let sent = layout?.sent ?? table.sentColumns(inHeader: batch.columnsInHeader)
        var encoded = batch.accept(BatchEncoding(feed: feed, types: types, sent: sent, format: layout?.format ?? .text, ranges: ranges))
        let chosen = layout?.format ?? CopyFormat(types: types, filled: encoded.filled)
        if chosen != (layout?.format ?? .text) {
            encoded = batch.accept(BatchEncoding(feed: feed, types: types, sent: sent, format: chosen, ranges: ranges))
        }
        self.layout = CopyLayout(format: chosen, sent: sent)
        (bytes, overflow, unsent, filled) = encoded
    }
}

/// Encodes one batch's records with their concrete type, in one format and the columns of `sent`: all
/// records, or those in `ranges`.
private struct BatchEncoding: RecordBatchVisitor {
    let feed: Int32
    let types: [PostgresColumnType]
    let sent: [Bool]
    let format: CopyFormat
    var ranges: [Range<Int>]?

    func visit<R: GTFSRecord>(_ records: [R]) -> (bytes: [UInt8], overflow: (column: Int, value: Int)?, unsent: Int?, filled: [Bool]) {
        switch format {
        case .text: encode(records, with: TextRowEncoder(types: types, sent: sent))
        case .binary: encode(records, with: BinaryRowEncoder(types: types, sent: sent))
        }
    }

    private func encode<R: GTFSRecord, Encoder: CopyRowEncoder>(
        _ records: [R], with encoder: Encoder
    ) -> (bytes: [UInt8], overflow: (column: Int, value: Int)?, unsent: Int?, filled: [Bool]) {
        var encoder = encoder
        for range in ranges ?? [records.indices] {
            for record in records[range] {
                encoder.beginRow(feed: feed)
                record.write(to: &encoder)
            }
        }
        return (encoder.takeBytes(), encoder.overflow, encoder.unsent, encoder.filled)
    }
}
