import GTFS
import GTFSStoreCore

extension PostgresImportRun {
    /// Writes what the import stored: `feed_tables` per file, a row in `imports`, the feed's version, and
    /// the kept changes' import.
    func record(startedAt: String, plan: ImportPlan) throws {
        let recorded = try recordTables(plan)
        // The tables the plan emptied hold no file's content any more, as in the SQLite store's catalog.
        let emptied = (plan.incremental ? plan.removed : Set(plan.replaced).subtracting(recorded)).map { "'\($0.rawValue)'" }
        if !emptied.isEmpty {
            try connection.execute(
                "DELETE FROM \(catalog).feed_tables WHERE feed = \(feed) AND table_name IN (\(emptied.sorted().joined(separator: ", ")))",
                "forget the emptied tables")
        }
        let contentHash = try PostgresStore.contentHash(feed: feed, schema: catalog, connection: connection)
        summary.contentHash = contentHash
        let counts = summary.changes
        let rows = try connection.query(
            """
            INSERT INTO \(catalog).imports (feed_name, source, content_hash, started_at, ended_at, kind, outcome,
                rows_inserted, rows_updated, rows_deleted, rows_unchanged, rows_rejected)
            VALUES ($1, $2, $3, $4::timestamptz, clock_timestamp(), $5, 'completed', $6, $7, $8, $9, $10) RETURNING import_id
            """,
            [
                options.feed, options.recordedSource(source), contentHash, startedAt, summary.kind.rawValue, String(counts.inserted), String(counts.updated),
                String(counts.deleted), String(counts.unchanged), String(summary.rowsRejected),
            ],
            "log the import")
        summary.importID = rows.first?.first.flatMap { $0 }.flatMap { Int64($0) }
        _ = try connection.query(
            "UPDATE \(catalog).feeds SET imported_at = now(), import_id = $2, content_hash = $3 WHERE feed = $1",
            [String(feed), summary.importID.map(String.init), contentHash], "update feeds")
        if let changes, let importID = summary.importID {
            try changes.finish(importID: importID, replaced: plan.keptReplacements(loaded: Set(loaded.keys)))
        }
    }

    /// `feed_tables`: a row per file loaded, with what lets the next import skip it (`ImportPlan.recordedState`),
    /// and the stored bytes' hash of skipped files compressed anew.
    /// - Returns: the tables recorded.
    private func recordTables(_ plan: ImportPlan) throws -> Set<GTFSFile> {
        var recorded = Set<GTFSFile>()
        let byName = Dictionary(entries.map { ($0.fileName, $0) }) { first, _ in first }
        for table in summary.tables where !table.isUnchangedFile {
            guard table.contentHash != nil || table.rowsRead > 0 else { continue }
            recorded.insert(table.file)
            let state = try plan.recordedState(of: table, entry: byName[table.fileName])
            _ = try connection.query(
                """
                INSERT INTO \(catalog).feed_tables (feed, table_name, content_hash, rows_read, rows_stored, rows_rejected, content_crc32, stored_hash)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                ON CONFLICT (table_name, feed) DO UPDATE SET content_hash = excluded.content_hash,
                    rows_read = excluded.rows_read, rows_stored = excluded.rows_stored, rows_rejected = excluded.rows_rejected,
                    content_crc32 = excluded.content_crc32, stored_hash = excluded.stored_hash
                """,
                [
                    String(feed), table.file.rawValue, state.contentHash, String(state.rowsRead), String(state.rowsStored),
                    String(state.rowsRejected), state.contentCRC32.map { String($0) }, state.storedHash,
                ],
                "record \(table.file.rawValue)")
        }
        for (file, hash) in try plan.renewedStoredHashes(entries: byName) {
            _ = try connection.query(
                "UPDATE \(catalog).feed_tables SET stored_hash = $3 WHERE feed = $1 AND table_name = $2", [String(feed), file.rawValue, hash],
                "record \(file.rawValue)")
        }
        return recorded
    }
}
