import Foundation
import GRDB
import GTFS

extension ImportWriter {
    /// Every row is stored or refused once the tables are finished (an incremental import stages a table's
    /// last groups when it ends): a file with more rejected rows than the limit fails the import, before
    /// an import that changed nothing could pass for a success.
    func checkRejectionLimit() throws {
        guard let feedSummary = state.feedSummary else { return }
        for table in state.tableImports(feedSummary, maxErrors: 1)
        where !options.maxRejected.allows(rejected: table.rowsRejected, of: table.rowsRead) {
            throw ImportError.tooManyRejected(
                file: table.fileName, rejected: table.rowsRejected, read: table.rowsRead, limit: options.maxRejected,
                first: table.errors.first)
        }
    }

    /// After the last row: the indexes, the reference checks, the feed's new version (`feed_tables`,
    /// `feeds`), the import's row in `imports`, and the import's facts in `gtfs_meta`.
    mutating func complete(_ db: Database, _ summary: inout ImportSummary) throws {
        let clock = ContinuousClock()
        // Loading: from the start of writing to the index build (a diff included, an incremental import's hashing not).
        summary.loadDuration = clock.now - state.loadStart
        report(.buildingIndexes)
        let indexStart = clock.now
        try GTFSSchema.createIndexes(db)
        // The tables whose rows changed: their timetable parts are rebuilt and their references checked.
        let touched = plan.incremental ? Set(state.changesByTable.filter { !$0.value.isEmpty }.keys) : Set(plan.replaced)
        summary.warnings += try Timetable.update(db, feed: feed, changed: touched)
        summary.indexDuration = clock.now - indexStart

        if options.checksReferences {
            report(.checkingReferences)
            let checkStart = clock.now
            for check in ReferenceCheck.all where check.involves(touched) {
                try pipeline.checkCancelled()
                summary.integrity.checksRun += 1
                let changesOnly = plan.incremental ? try check.checksChangesOnly(db, feed: feed, changed: touched) : false
                let finding = changesOnly ? try check.runOnChanges(db, feed: feed) : try check.run(db, feed: feed)
                if let finding { summary.integrity.findings.append(finding) }
                try check.record(finding, db, feed: feed)
            }
            try ReferenceCheck.dropScratch(db)
            summary.integrityDuration = clock.now - checkStart
        } else {
            for check in ReferenceCheck.all where check.involves(touched) { try check.forget(db, feed: feed) }
        }
        try confirmAssumptions()
        try recordVersion(db, &summary)
    }

    /// Waits until the files the plan assumed unchanged by their CRC-32 are confirmed so, before the
    /// import commits or says it changed nothing.
    /// - Throws: ``ImportPlan/Outdated`` when one of them changed, `CancellationError`.
    func confirmAssumptions() throws {
        guard let confirmation = plan.confirmation, !confirmation.confirmed() else { return }
        try pipeline.checkCancelled()
        throw ImportPlan.Outdated()
    }

    /// The feed's new version in the catalog, and the import's row in `imports`.
    private mutating func recordVersion(_ db: Database, _ summary: inout ImportSummary) throws {
        var loaded: [GTFSFile: TableState] = [:]
        let entries = Dictionary(try source.entries().map { ($0.fileName, $0) }) { first, _ in first }
        var rejected = 0
        if let feedSummary = state.feedSummary {
            // The zip's CRC-32 of each file, checked as the parser read it to its end.
            for table in state.tableImports(feedSummary, maxErrors: 0) {
                loaded[table.file] = try plan.recordedState(of: table, entry: entries[table.fileName])
                rejected += table.rowsRejected
                if !plan.incremental { state.changesByTable[table.file, default: TableChanges()].inserted = table.rowsStored }
            }
        }
        let emptied = plan.incremental ? plan.removed : Set(plan.replaced).subtracting(loaded.keys)
        try FeedCatalog.recordTables(db, feed: feed, loaded: loaded, emptied: emptied)
        // An unchanged file keeps its row, but its stored bytes may differ (compressed otherwise than last time).
        for (file, hash) in try plan.renewedStoredHashes(entries: entries) {
            try FeedCatalog.recordStoredHash(db, feed: feed, file: file, hash: hash)
        }
        let contentHash = try FeedCatalog.contentHash(db, feed: feed)
        let changes = state.changesByTable.values.reduce(TableChanges(), +)
        let unchangedElsewhere = plan.unchanged.keys.reduce(0) { $0 + (plan.existing?.tables[$1]?.rowsStored ?? 0) }
        let sourceName = options.recordedSource(source)
        var record = FeedCatalog.ImportRecord(
            feedName: options.feed, source: sourceName, contentHash: contentHash, startedAt: state.startDate,
            kind: plan.incremental ? .incremental : .full, outcome: "completed")
        record.inserted = changes.inserted
        record.updated = changes.updated
        record.deleted = changes.deleted
        record.unchanged = changes.unchanged + unchangedElsewhere
        record.rejected = rejected
        let importID = try FeedCatalog.record(db, record)
        try keeper.kept?.finish(db, importID: importID, replaced: plan.keptReplacements(loaded: Set(loaded.keys)))
        try FeedCatalog.setCurrentVersion(db, feed: feed, source: sourceName, importID: importID, contentHash: contentHash)
        summary.importID = importID
        summary.contentHash = contentHash

        let facts: [(String, String)] = [
            ("last_import_source", sourceName),
            ("last_import_completed_at", ISO8601DateFormatter().string(from: Date())),
        ]
        for (key, value) in facts {
            try db.execute(sql: "INSERT OR REPLACE INTO gtfs_meta (key, value) VALUES (?, ?)", arguments: [key, value])
        }
    }
}
