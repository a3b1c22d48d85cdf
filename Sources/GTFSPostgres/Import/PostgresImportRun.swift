import Foundation
import GTFS
import GTFSStoreCore

/// One import into a schema, inside the caller's transaction: the schema made ready, the files that
/// changed parsed and sent with `COPY`, keys, indexes, reference checks, and the record of it.
///
/// Into a schema without GTFS tables, rows go straight into new tables (frozen), keyed after the load.
/// Into a schema that has them, each file's rows go into a staging table and are merged by key
/// (`StagedTable`): only rows that differ are written, as the SQLite store's diff writes them.
final class PostgresImportRun: StoreWriter {
    let connection: PostgresConnection
    /// The schema whose tables the import writes.
    let schema: String
    /// The schema whose `feeds`, `feed_tables` and `imports` record the import: ``schema``, unless the
    /// feed is built aside (``AsideBuild``) and switched into this one.
    let catalog: String
    /// The feed's number when the catalog holds it and the tables are built aside.
    let assignedFeed: Int32?
    let source: FeedSource
    let options: ImportOptions
    let reporter: ProgressReporter?
    let shouldContinue: @Sendable () -> Bool
    let usesPostGIS: Bool
    /// The schema's migrations (the store's: tests add a made-up later one).
    let migrations: [PostgresMigration]
    /// PostGIS, when the server has it and the store uses it.
    private(set) var postgis: PostGIS?
    /// Whether the schema held no tables: this import creates them all (`feed_groups` without its key until
    /// the digests are in), and a failed or cancelled one leaves no `imports` table to log in.
    private(set) var createsSchema = false
    /// Whether the schema held an earlier version and was migrated: committed even when nothing else changed.
    private(set) var migrated = false
    let clock = ContinuousClock()
    let start: ContinuousClock.Instant
    var rowsStart: ContinuousClock.Instant?
    var progress = ImportProgress()
    var summary = ImportSummary()

    // The state of the story, set as it goes.
    /// Whether the GTFS tables are new, created by this import (loaded frozen, keyed after the load).
    var fresh = false
    /// Whether the feed is stored and its files are compared and merged rather than replaced.
    var incremental = false
    /// The feed's number.
    var feed: Int32 = 0
    /// What each file's load gave, and per file loaded whether each column held a value in a row.
    var loaded: [GTFSFile: Loaded] = [:]
    var filled: [GTFSFile: [Bool]] = [:]
    /// The rows of tables emptied before the load, by table.
    var deleted: [GTFSFile: Int] = [:]
    /// The file whose rows are being sent.
    var open: OpenFile?
    /// The grouped files compared group by group with the stored ones.
    var comparisons: [GTFSFile: GroupComparison] = [:]
    /// The changes, when they are reported or kept.
    var changes: PostgresChanges?
    /// The story's driver, once the import runs.
    private var driver: ImportDriver?
    /// The source's files.
    private(set) var entries: [FeedEntry] = []
    /// The feed's number, when the schema holds the feed.
    private(set) var existing: Int32?
    /// The server's clock at the start, for `imports`.
    var startedAt = ""

    init(
        connection: PostgresConnection, schema: String, source: FeedSource, options: ImportOptions, usesPostGIS: Bool,
        migrations: [PostgresMigration], reporter: ProgressReporter?, catalog: String? = nil, assignedFeed: Int32? = nil,
        shouldContinue: @escaping @Sendable () -> Bool
    ) {
        self.catalog = catalog ?? schema
        self.assignedFeed = assignedFeed
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
    struct Loaded {
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

    /// Runs the import, the core's `ImportDriver` over this writer (``prepare()`` first, unless called
    /// before); the caller commits, or rolls back when `ImportSummary.changedNothing`.
    /// - Parameter startedAt: the server's clock at the start, for `imports`.
    func run(startedAt: String) throws -> ImportSummary {
        self.startedAt = startedAt
        return try (driver ?? prepare()).run(self)
    }

    /// Reads the source's list of files and makes the story's driver, without the server.
    /// - Parameter listed: called once the files are listed.
    /// - Throws: `GTFSError` when the source cannot be read or holds no GTFS file.
    @discardableResult
    func prepare(listed: () -> Void = {}) throws -> ImportDriver {
        entries = try source.entries()
        listed()
        let shouldContinue = self.shouldContinue
        let driver = try ImportDriver(source: source, entries: entries, options: options, start: start) { !shouldContinue() }
        self.driver = driver
        return driver
    }

    /// Full or incremental, as far as the story got: what a failure records in `imports`.
    var kind: ImportSummary.Kind { driver?.kind ?? .full }

    /// The files are hashed before the load: a plan's confirmation is not awaited.
    var confirmsHashesWhileLoading: Bool { false }

    /// The schema made ready, and what it holds of the feed.
    func storedState() throws -> FeedState? {
        fresh = try prepareSchema()
        existing = try PostgresStore.feedNumber(options.feed, schema: schema, connection: connection)
        return try existing.map(storedState(feed:))
    }

    func begin(_ phase: ImportProgress.Phase) {
        report(phase)
    }

    /// The story's writing part: the feed numbered, the changed files loaded, the timetable, indexes,
    /// reference checks and the record.
    func write(_ plan: ImportPlan) throws -> ImportSummary {
        incremental = plan.incremental
        summary.kind = incremental ? .incremental : .full
        summary.replacedTables = plan.replaced
        if options.changeHandler != nil || options.keepsChanges {
            changes = PostgresChanges(
                schema: schema, feedName: options.feed, handler: options.changeHandler, keeps: options.keepsChanges, keepsRows: incremental,
                connection: connection)
        }
        if let built = try writeAside(plan) { return built }
        try numberFeed(existing, plan: plan)
        if incremental {
            let rereadable = Set(entries.filter(\.isRereadable).compactMap(\.table))
            for file in GTFSFile.loadOrder where rereadable.contains(file) && plan.unchanged[file] == nil {
                comparisons[file] = try compareGroups(file)
            }
            if let built = try rebuildIfMuchChanged(plan) { return built }
        }
        let loadStart = clock.now
        let parsed = try load(plan)
        try finishLoad(parsed)
        summary.loadDuration = clock.now - loadStart
        try summarize(parsed, plan: plan)
        try analyze()
        summary.warnings = parsed.warnings
        summary.skippedFiles = parsed.skippedFiles
        summary.bytesRead = parsed.bytesRead

        // As in the SQLite store: a full import rebuilds and checks what it replaced; an incremental one, what it changed.
        let touched = incremental ? Set(summary.tables.filter { !$0.changes.isEmpty }.map(\.file)) : Set(summary.replacedTables)
        summary.warnings += try PostgresTimetable.update(schema: schema, feed: feed, changed: touched, connection: connection)
        if postgis == nil, usesPostGIS, !touched.isDisjoint(with: [.stops, .shapes]) {
            summary.warnings.append(PostGIS.unavailable)
        }
        try buildIndexes(postgis: postgis)
        if options.checksReferences { try checkReferences(touched) }
        try record(startedAt: startedAt, plan: plan)
        report(.committing)
        summary.duration = clock.now - start
        return summary
    }

    /// The last report comes after the rollback (``finished()``).
    func finishUnchanged(_ summary: ImportSummary) {}

    /// The feed's number: a new one for a feed the schema lacks; for a stored feed, the tables it loses
    /// emptied (their rows reported as deleted when changes are asked for).
    private func numberFeed(_ existing: Int32?, plan: ImportPlan) throws {
        let described = options.recordedSource(source)
        guard let number = assignedFeed ?? existing else {
            let rows = try connection.query(
                "INSERT INTO \(schema).feeds (feed, name, source) SELECT coalesce(max(feed), 0) + 1, $1, $2 FROM \(schema).feeds RETURNING feed",
                [options.feed, described], "add feed \(options.feed)")
            guard let number = rows.first?.first.flatMap({ $0 }).flatMap({ Int32($0) }) else {
                throw PostgresError(target: connection.target, operation: "add feed \(options.feed)", message: "the server returned no feed number")
            }
            feed = number
            return
        }
        feed = number
        _ = try connection.query("UPDATE \(catalog).feeds SET source = $2 WHERE feed = $1", [String(feed), described], "update feeds")
        // Tables built aside are new.
        guard assignedFeed == nil else { return }
        let emptied = incremental ? plan.removed : Set(plan.replaced).subtracting(plan.unchanged.keys)
        guard !emptied.isEmpty else { return }
        report(.removingRows)
        try PostgresGroups.forget(emptied, schema: schema, feed: feed, connection: connection)
        for file in GTFSFile.allCases where emptied.contains(file) {
            let count = try empty(PostgresTable(file))
            if count > 0 { deleted[file] = count }
        }
    }

    /// Deletes the feed's rows of `table`, reported as deleted when changes are asked for.
    /// - Returns: the rows deleted.
    func empty(_ table: PostgresTable) throws -> Int {
        try changes?.reportRows(of: table, feed: feed, as: .delete)
        return try connection.execute("DELETE FROM \(schema).\(table.name) WHERE feed = \(feed)", "delete the old rows of \(table.name)")
    }

    /// The schema made ready: refused when it holds tables and no `feeds`; the feed tables created when
    /// missing, and the GTFS tables too (without keys, for the load).
    /// - Returns: whether the GTFS tables are new (created in this transaction).
    func prepareSchema() throws -> Bool {
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
        migrated = try PostgresSchemaVersion.migrate(schema: schema, from: version, migrations: migrations, connection: connection)
        try PostgresSchemaVersion.define(PostgresTimetable.createStatements(schema: schema), schema: schema, connection: connection)
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
            "SELECT table_name, content_hash, rows_read, rows_stored, rows_rejected, content_crc32, stored_hash FROM \(schema).feed_tables WHERE feed = $1",
            [String(feed)], "read the stored tables")
        {
            guard let name = row[0], let file = GTFSFile(rawValue: name) else { continue }
            tables[file] = TableState(
                contentHash: row[1], rowsRead: Int(row[2] ?? "") ?? 0, rowsStored: Int(row[3] ?? "") ?? 0, rowsRejected: Int(row[4] ?? "") ?? 0,
                contentCRC32: row[5].flatMap { UInt32($0) }, storedHash: row[6])
        }
        let holding = GTFSFile.allCases.map { "SELECT '\($0.rawValue)' WHERE EXISTS (SELECT 1 FROM \(schema).\($0.rawValue) WHERE feed = \(feed))" }
        let withRows = try connection.query(holding.joined(separator: " UNION ALL "), [], "look for the feed's rows")
        let feedRow = try connection.query("SELECT import_id, content_hash FROM \(schema).feeds WHERE feed = $1", [String(feed)], "read the feed")
        return FeedState(
            id: Int64(feed), importID: feedRow.first?[0].flatMap { Int64($0) }, contentHash: feedRow.first?[1], tables: tables,
            tablesWithRows: Set(withRows.compactMap { $0.first.flatMap { $0 }.flatMap(GTFSFile.init(rawValue:)) }))
    }

    /// A phase change, for the progress handler.
    func report(_ phase: ImportProgress.Phase) {
        progress.phase = phase
        offer()
    }

    /// The parser's progress while loading.
    func offerLoading(_ parsed: FeedProgress) {
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
