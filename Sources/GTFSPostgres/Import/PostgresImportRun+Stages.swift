import GTFS
import GTFSStoreCore

extension PostgresImportRun {
    /// Reads a grouped file once to digest its groups, and compares them with the stored ones in SQL.
    /// - Returns: the groups to send and the rows of the others; `nil` when the whole file is to be sent: the
    ///   file is not grouped, the store has no digests for it, or more than a quarter of its groups changed.
    func compareGroups(_ file: GTFSFile) throws -> GroupComparison? {
        guard let column = GroupedTables.column(for: file) else { return nil }
        let table = PostgresTable(file)
        let stored = try connection.query(
            "SELECT count(*) FROM \(schema).feed_groups WHERE feed = \(feed) AND table_name = $1 AND digest_a IS NOT NULL", [table.name],
            "look for the groups of \(table.name)")
        guard stored.first?.first.flatMap({ $0 }).flatMap({ Int($0) }) ?? 0 > 0 else { return nil }
        report(.hashing)
        var only = options.parsing
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

    /// The per-file results, and the limit on rejected rows.
    func summarize(_ parsed: FeedSummary, plan: ImportPlan) throws {
        var parsedTables: [TableImport] = []
        var changes = deleted.mapValues { TableChanges(deleted: $0) }
        for table in parsed.tables {
            guard let file = table.file else { continue }
            let load = loaded[file] ?? Loaded()
            var result = TableImport(fileName: table.fileName, file: file)
            result.rowsRead = table.rowsRead
            result.rowsRejected = table.rowsRejected + load.rejected.count
            result.rowsStored = table.rowsRead - result.rowsRejected
            result.errors = Array((table.errors + load.rejected).prefix(options.parsing.maxStoredErrors))
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
    }

    /// Statistics of the tables whose rows changed by a tenth or more, for the timetable's and the checks'
    /// queries and the first queries of users: without them the planner guesses, and sorted a 5 M-row
    /// table where a hash took a quarter of the time. Smaller changes leave them to autovacuum.
    /// feed_groups too when a file's digests were written whole (the checks of group columns read it).
    /// A table larger than the usual sample (30,000 rows) whose changes pass autovacuum's default threshold
    /// (50 rows and a tenth) is analyzed from a tenth of that sample, at about a tenth of the cost: enough
    /// for these plans, and autovacuum analyzes it again with the server's own target after the commit.
    func analyze() throws(PostgresError) {
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
    }

    /// The lookup indexes, the timetable's, and PostGIS's.
    func buildIndexes(postgis: PostGIS?) throws(PostgresError) {
        let indexStart = clock.now
        report(.buildingIndexes)
        for index in LookupIndex.all {
            try connection.execute(PostgresTimetable.indexStatement(index, schema: schema), "index \(index.name)")
        }
        for statement in PostgresTimetable.indexStatements(schema: schema) { try connection.execute(statement, "index the stops") }
        try postgis?.createIndexes(schema: schema, connection: connection)
        summary.indexDuration = clock.now - indexStart
    }

    /// The reference checks of the tables the import touched.
    func checkReferences(_ touched: Set<GTFSFile>) throws {
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
}
