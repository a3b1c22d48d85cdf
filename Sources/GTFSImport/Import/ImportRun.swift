import Dispatch
import Foundation
import GRDB
import GRDBSQLite
import GTFS
import Synchronization

/// One import, start to end: the parser on its own thread (reading, inflating, parsing), the writer on
/// the store's writer queue, a bounded ``BatchChannel`` between them, and the cancel that reaches both.
///
/// ``ImportOperation`` and ``GTFSStore/importFeed(from:options:progressQueue:progress:)`` are thin
/// wrappers around it.
final class ImportRun: Sendable {
    /// Where an import writes.
    enum Destination: Sendable {
        /// An open store.
        case store(GTFSStore)
        /// A path: opened as a store when the import runs, or built as a ``NewDatabaseFile`` when nothing
        /// is there and the import is atomic.
        case path(String)
    }

    let source: FeedSource
    let destination: Destination
    let options: ImportOptions
    let reporter: ProgressReporter

    private let cancelled = Atomic<Bool>(false)
    private let channel: BatchChannel
    /// Raw bytes the parser has consumed, and the input's total (-1 when unknown), for progress.
    private let parsedBytes = Atomic<Int64>(0)
    private let totalBytes = Atomic<Int64>(-1)
    /// Called on the writer's thread before the first row of each file is stored and as each later phase
    /// begins, with the file name while loading (tests cancel there to hit a phase deterministically).
    let phaseObserver = Mutex<(@Sendable (ImportProgress.Phase, String) -> Void)?>(nil)

    init(
        source: FeedSource, destination: Destination, options: ImportOptions, reporter: ProgressReporter
    ) {
        self.source = source
        self.destination = destination
        self.options = options
        self.reporter = reporter
        self.channel = BatchChannel(capacity: options.maxBatchesInFlight)
    }

    /// The database file, for messages.
    var databasePath: String {
        switch destination {
        case .store(let store): store.path
        case .path(let path): path
        }
    }

    /// Whether ``cancel()`` was called.
    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Stops the import: the parser stops at its next batch or poll, a waiting writer wakes, a running
    /// SQLite statement (an index build, say) is interrupted within a few thousand VM steps.
    func cancel() {
        cancelled.store(true, ordering: .releasing)
        channel.close()
    }

    /// Runs the import on the calling thread (it blocks until the end).
    ///
    /// - Returns: the summary of a completed import.
    /// - Throws: ``ImportError``; in atomic mode the database is then unchanged.
    func run() throws(ImportError) -> ImportSummary {
        do {
            return try runImport()
        } catch {
            throw importError(error)
        }
    }

    // MARK: - The import

    private func runImport() throws -> ImportSummary {
        let clock = ContinuousClock()
        let start = clock.now
        let startDate = Date()
        try options.validate()
        if isCancelled { throw CancellationError() }
        let entries = try source.entries().filter { $0.table != nil }
        let imported = try Self.importedTables(entries, of: source)
        // The file the path leads to: a store is created at the end of a dangling symbolic link, not at the link.
        let file = DatabasePath.resolved(databasePath)
        if let problem = DatabasePath.problem(file) { throw StoreError.notAGTFSDatabase(path: databasePath, reason: problem) }
        let lock = try ImportLock.acquire(for: file, wait: options.lockWait) {
            report(WriterState(start: start), phase: .waiting)
        } shouldContinue: {
            !isCancelled
        }
        defer { lock.release() }
        NewDatabaseFile.removeLeftovers(of: file)
        let store: GTFSStore
        switch destination {
        case .store(let open):
            store = open
        case .path(let path):
            if !FileManager.default.fileExists(atPath: file) { try DiskSpace.check(entries, databasePath: file) }
            if options.mode == .atomic, let newFile = try NewDatabaseFile.begin(at: file) {
                return try importIntoNewFile(newFile, imported: imported, start: start, startDate: startDate)
            }
            store = try GTFSStore(path: path)
        }
        // From here on every outcome is recorded in `imports`.
        var kind = ImportSummary.Kind.full
        do {
            let existing = try store.pool.read { db in try FeedCatalog.state(db, name: options.feed) }
            let incremental = existing != nil && options.update == .automatic && options.mode == .atomic
            kind = incremental ? .incremental : .full
            if !incremental { try DiskSpace.check(entries, databasePath: file) }
            var plan = makePlan(imported: imported, existing: existing, incremental: incremental)
            if incremental, let existing {
                let hashStart = clock.now
                report(WriterState(start: start), phase: .hashing)
                try plan.findUnchangedFiles(in: source, stored: existing, chunkSize: options.chunkSize) { !self.isCancelled }
                let hashDuration = clock.now - hashStart
                if plan.isNoChange {
                    return noChangeSummary(plan, hashDuration: hashDuration, start: start)
                }
                var summary = try write(store.pool, plan, start: start, startDate: startDate)
                summary.hashDuration = hashDuration
                return summary
            }
            return try write(store.pool, plan, start: start, startDate: startDate)
        } catch {
            recordFailure(error, store: store, kind: kind, startDate: startDate)
            throw error
        }
    }

    /// The plan of an import of the `imported` tables, given what the store holds of the feed.
    private func makePlan(imported: Set<GTFSFile>, existing: FeedCatalog.FeedState?, incremental: Bool) -> ImportPlan {
        ImportPlan(
            imported: imported, existing: existing, incremental: incremental,
            replaceAll: (options.replacement ?? (source.isWholeFeed ? .allTables : .importedTables)) == .allTables)
    }

    /// A first import into a path that holds nothing: the whole feed into a new file, which gets its
    /// path only when complete. A failure deletes the file, so nothing records it.
    private func importIntoNewFile(
        _ newFile: NewDatabaseFile, imported: Set<GTFSFile>, start: ContinuousClock.Instant, startDate: Date
    ) throws -> ImportSummary {
        do {
            let plan = makePlan(imported: imported, existing: nil, incremental: false)
            return try write(newFile.queue, plan, start: start, startDate: startDate) {
                // Committed to the temporary file: the path still holds nothing, so a cancel still counts.
                if self.isCancelled { throw CancellationError() }
                try newFile.install()
            }
        } catch {
            newFile.discard()
            throw error
        }
    }

    /// The summary of an incremental import whose files all match the stored version: nothing is written.
    private func noChangeSummary(_ plan: ImportPlan, hashDuration: Duration, start: ContinuousClock.Instant) -> ImportSummary {
        var summary = ImportSummary()
        summary.feed = options.feed
        summary.kind = .incremental
        summary.mode = options.mode
        summary.changedNothing = true
        summary.tables = plan.unchangedImports()
        summary.contentHash = plan.existing?.contentHash
        summary.hashDuration = hashDuration
        summary.duration = .now - start
        // Every file was read once, to hash it.
        summary.bytesRead = plan.hashedBytes
        var final = WriterState(start: start).progress(
            phase: .finished, bytesRead: summary.bytesRead, totalBytes: summary.bytesRead)
        final.fileName = ""
        reporter.offer(final)
        return summary
    }

    /// Loads the tables the plan parses, full or as a diff, in the mode the options ask for.
    ///
    /// `afterCommit` runs once the import's transaction has committed, before the summary's duration is
    /// taken and the `finished` progress is reported.
    private func write(
        _ database: any DatabaseWriter, _ plan: ImportPlan, start: ContinuousClock.Instant, startDate: Date,
        afterCommit: () throws -> Void = {}
    ) throws -> ImportSummary {
        let clock = ContinuousClock()
        let parserDone = startParser(tables: plan.incremental ? plan.tablesToParse : nil)
        defer {
            channel.close()
            // A parser that is parsing stops at its next batch or poll, within milliseconds; one blocked
            // reading a pipe (standard input) stops when that read returns. Wait only briefly, so a cancel
            // never waits for the other end of a pipe.
            _ = parserDone.wait(timeout: .now() + .milliseconds(50))
        }

        var writer = WriterState(start: start, isIncremental: plan.incremental)
        var summary = ImportSummary()
        summary.feed = options.feed
        summary.kind = plan.incremental ? .incremental : .full
        summary.mode = options.mode
        summary.replacedTables = plan.replaced
        try database.writeWithoutTransaction { db in
            // Start with every committed page copied into the database file: if this import fails, the WAL
            // then holds only its own uncommitted pages, and the checkpoint after the failure can give their
            // space back even on a full disk.
            GTFSStore.checkpoint(db, truncating: false)
            let interrupt = Unmanaged.passRetained(self)
            sqlite3_progress_handler(db.sqliteConnection, 1000, { context in
                guard let context else { return 0 }
                return Unmanaged<ImportRun>.fromOpaque(context).takeUnretainedValue().isCancelled ? 1 : 0
            }, interrupt.toOpaque())
            defer {
                sqlite3_progress_handler(db.sqliteConnection, 0, nil, nil)
                interrupt.release()
            }
            if plan.incremental { try TableDiff.attachScratch(db) }
            defer { if plan.incremental { TableDiff.detachScratch(db) } }
            switch options.mode {
            case .atomic:
                try db.inTransaction(.immediate) {
                    let feed = try begin(db, plan, &writer)
                    _ = try load(db, &writer, feed: feed, plan: plan, commitEvery: nil)
                    if plan.incremental {
                        try finishDiff(db, plan, &writer, feed: feed)
                        if writer.changesByTable.values.allSatisfy(\.isEmpty) {
                            // The rows are those the store holds: write nothing, not even the import's record.
                            summary.changedNothing = true
                            return .rollback
                        }
                    }
                    try finishLoad(db, plan, &writer, &summary, feed: feed, startDate: startDate)
                    report(writer, phase: .committing)
                    return .commit
                }
            case .batched(let rowsPerCommit):
                do {
                    var finished = false
                    var feed: Int64 = 0
                    var first = true
                    while !finished {
                        try db.inTransaction(.immediate) {
                            if first { feed = try begin(db, plan, &writer, dropsIndexes: false) }
                            finished = try load(db, &writer, feed: feed, plan: plan, commitEvery: max(1, rowsPerCommit))
                            if finished {
                                try finishLoad(db, plan, &writer, &summary, feed: feed, startDate: startDate)
                                try db.execute(sql: "DELETE FROM gtfs_meta WHERE key = 'import_stopped_at'")
                                report(writer, phase: .committing)
                            }
                            return .commit
                        }
                        writer.commit()
                        first = false
                    }
                } catch {
                    // What was committed stays; say where the import stopped, without the interrupt.
                    sqlite3_progress_handler(db.sqliteConnection, 0, nil, nil)
                    let point = writer.stopPoint
                    do {
                        try db.inTransaction(.immediate) {
                            try db.execute(
                                sql: "INSERT OR REPLACE INTO gtfs_meta (key, value) VALUES ('import_stopped_at', ?)",
                                arguments: [point.description])
                            return .commit
                        }
                    } catch let recordError {
                        // The first failure is what the caller needs (a full disk fails this write too);
                        // a cancel still reports its stop point through the error.
                        if isCancelled || error is CancellationError { throw ImportError.cancelled(stoppedAt: point) }
                        throw ImportError.database(
                            path: databasePath, message: "\(importError(error)); recording where the import stopped failed too: \(importError(recordError))")
                    }
                    if isCancelled || error is CancellationError { throw ImportError.cancelled(stoppedAt: point) }
                    throw error
                }
            }
        }
        if !summary.changedNothing { database.writeWithoutTransaction { GTFSStore.checkpoint($0) } }
        try afterCommit()
        guard let feed = writer.feedSummary else { throw CancellationError() }
        summary.tables = plan.summaryTables(writer.tableImports(feed, maxErrors: options.maxStoredErrors), changes: writer.changesByTable)
        summary.warnings = feed.warnings
        summary.bytesRead = feed.bytesRead
        summary.duration = clock.now - start
        summary.diffDuration = writer.diffDuration
        var final = writer.progress(phase: .finished, bytesRead: feed.bytesRead, totalBytes: feed.bytesRead)
        final.fileName = ""
        reporter.offer(final)
        return summary
    }

    /// The first step inside the import's transaction: the feed's number (created for a new feed), a
    /// check that no other import changed the feed since it was planned, and for a full import the
    /// removal of the feed's earlier rows (with their counts) and of the indexes rebuilt at the end.
    private func begin(_ db: Database, _ plan: ImportPlan, _ writer: inout WriterState, dropsIndexes: Bool = true) throws -> Int64 {
        let feed = try FeedCatalog.id(db, name: options.feed)
        let importID = try Int64.fetchOne(db, sql: "SELECT import_id FROM feeds WHERE feed = ?", arguments: [feed])
        if let existing = plan.existing, existing.importID != importID {
            throw ImportError.database(
                path: databasePath, message: "feed \(options.feed) was changed by another import meanwhile; nothing was written, run the import again")
        }
        if !plan.incremental {
            if dropsIndexes { try GTFSSchema.dropIndexes(db, on: Set(plan.replaced)) }
            if let existing = plan.existing {
                for file in plan.replaced where existing.tablesWithRows.contains(file) {
                    let count = try Int.fetchOne(
                        db, sql: "SELECT count(*) FROM \(GTFSSchema.tableName(for: file)) WHERE feed = ?", arguments: [feed]) ?? 0
                    writer.changesByTable[file, default: TableChanges()].deleted = count
                }
            }
            try GTFSSchema.deleteRows(db, of: plan.replaced, feed: try FeedCatalog.hasOtherFeeds(db, than: feed) ? feed : nil)
            try FeedCatalog.forgetHashes(db, feed: feed, of: plan.replaced)
        }
        return feed
    }

    /// Starts the parser on its own thread, feeding the channel; the semaphore is signalled when it ends.
    /// - Parameter tables: the only tables to parse; all when `nil`.
    private func startParser(tables: Set<GTFSFile>?) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        var parseOptions = options.parseOptions
        parseOptions.tables = tables
        let parser = FeedParser(source: source, options: parseOptions)
        DispatchQueue(label: "GTFSImport.parse", qos: .userInitiated).async { [self] in
            let result = Result<FeedSummary, any Error> {
                try parser.parse(
                    shouldContinue: { !self.isCancelled },
                    progress: { state in
                        self.parsedBytes.store(state.bytesRead, ordering: .relaxed)
                        self.totalBytes.store(state.totalBytes ?? -1, ordering: .relaxed)
                    },
                    consume: { batch in
                        // Grouped tables are hashed here, on the parser's thread (see GroupRun).
                        let runs = GroupedTables.column(for: batch.file) != nil ? GroupRun.split(batch) : nil
                        try self.channel.put(batch, runs: runs)
                    })
            }
            channel.finish(result)
            done.signal()
        }
        return done
    }

    /// Stores batches until the parser ends (`true`) or, in batched mode, until `commitEvery` rows
    /// have been stored since the last commit (`false`).
    private func load(_ db: Database, _ writer: inout WriterState, feed: Int64, plan: ImportPlan, commitEvery: Int?) throws -> Bool {
        while true {
            guard let item = channel.next() else { throw CancellationError() }
            switch item {
            case .end(let result):
                let feed = try result.get()
                // A single table that is empty (0 bytes, or no header) would silently empty its table:
                // refuse it. In a whole feed an empty optional file is common and means "no rows".
                if !source.isWholeFeed, let empty = feed.tables.lazy.flatMap(\.warnings).first(where: { $0.kind == .emptyFile }) {
                    throw empty
                }
                try finishGroups(&writer)
                writer.feedSummary = feed
                return true
            case .batch(let batch, let runs):
                if isCancelled { throw CancellationError() }
                try store(batch, runs: runs, db, &writer, feed: feed, plan: plan)
                reporter.offer(
                    writer.progress(
                        phase: .loading, bytesRead: parsedBytes.load(ordering: .relaxed),
                        totalBytes: totalBytes.load(ordering: .relaxed)))
                if let commitEvery, writer.rowsSinceCommit >= commitEvery { return false }
            }
        }
    }

    /// Stores one batch: inserts it (into the table's staging copy in an incremental import), or, when
    /// the table is compared group by group, stages only the groups that changed.
    private func store(_ batch: RecordBatch, runs: [GroupRun]?, _ db: Database, _ writer: inout WriterState, feed: Int64, plan: ImportPlan) throws {
        if batch.fileName != writer.currentFile {
            phaseObserver.withLock { $0 }?(.loading, batch.fileName)
            try finishGroups(&writer)
            if writer.isIncremental {
                // The previous file is complete: apply it while the parser reads this one.
                try applyPendingDiff(db, &writer)
                if try !storesDirectly(batch.file, db, &writer, feed: feed, plan: plan) {
                    writer.pendingDiff = try makeDiff(db, file: batch.file, feed: feed, plan: plan)
                }
            }
            if runs != nil, writer.pendingDiff?.filter == nil {
                writer.groupRecorder = try GroupRecorder(db, file: batch.file, feed: feed)
            }
        }
        if let runs, let decision = try writer.pendingDiff?.filter?.add(runs, of: batch) {
            writer.kept(decision.skippedRows, of: batch)
            try stage(decision.stage, db, &writer, feed: feed)
            return
        }
        let refused = try insert(batch, db, &writer, feed: feed)
        try writer.groupRecorder?.record(runs ?? [], of: batch, refused: refused)
    }

    /// Inserts a batch (into the table's staging copy in an incremental import); rows the database
    /// refuses (a duplicate key) are rejected with an error that names the line, or, in strict mode, stop
    /// the import.
    /// - Returns: the indexes in the batch of the refused rows.
    private func insert(_ batch: RecordBatch, _ db: Database, _ writer: inout WriterState, feed: Int64) throws -> [Int] {
        let strict = options.strict
        // Errors are made only for the refusals the summary keeps: a feed may repeat one row millions of times.
        let room = writer.errorRoom(in: batch.fileName, maxErrors: options.maxStoredErrors)
        let key = StoreTable(batch.file).keyColumns.joined(separator: ", ")
        var errors: [GTFSError] = []
        var indexes: [Int] = []
        let stored = try batch.insert(into: db, feed: feed, table: writer.pendingDiff?.stagingTable) { index, _ in
            indexes.append(index)
            guard strict || errors.count < room else { return }
            let problem = GTFSError(
                .duplicateKey, file: batch.fileName, line: batch.line(at: index), column: key.isEmpty ? nil : key,
                message: "repeats the key of an earlier row; rejected")
            if strict { throw problem }
            errors.append(problem)
        }
        writer.stored(stored, refused: indexes.count, errors: errors, of: batch)
        return indexes
    }

    /// Stages the rows of the groups a ``GroupFilter`` found changed; a group the store refuses a row of
    /// loses its digest.
    private func stage(_ groups: [PendingGroup], _ db: Database, _ writer: inout WriterState, feed: Int64) throws {
        guard let batch = PendingGroup.gather(groups) else { return }
        let refused = try insert(batch, db, &writer, feed: feed)
        for position in owners(of: refused, partSizes: groups.lazy.map(\.segmentRows)) {
            if let key = groups[position].key { try writer.pendingDiff?.filter?.invalidate(key) }
        }
    }

    /// Ends the group digests of the table stored last.
    private func finishGroups(_ writer: inout WriterState) throws {
        try writer.groupRecorder?.finish()
        writer.groupRecorder = nil
    }

    /// Whether an incremental import stores `file`'s rows straight into the store instead of staging and
    /// comparing them: the stored feed has no rows in that table (a file the feed never had, or had
    /// empty), so every row is an insert. The table is then loaded as in a full import: its post-load indexes
    /// are dropped and rebuilt at the end, and its group digests recorded. Staging and comparing took
    /// 66–74 s for 5 M stop_times added to a one-stop feed, against 8.5–9.6 s for a full import.
    private func storesDirectly(_ file: GTFSFile, _ db: Database, _ writer: inout WriterState, feed: Int64, plan: ImportPlan) throws -> Bool {
        guard let existing = plan.existing, !existing.tablesWithRows.contains(file) else { return false }
        try GTFSSchema.dropIndexes(db, on: [file])
        try FeedGroups.delete(db, feed: feed, tables: [file])
        writer.directTables.insert(file)
        return true
    }

    /// The diff of one table of an incremental import: group by group when the table is grouped and the
    /// store holds its groups (or none of its rows); otherwise row by row, and then the stored groups,
    /// which no longer describe what the table will hold, are forgotten (a ``GroupRecorder`` writes new ones).
    private func makeDiff(_ db: Database, file: GTFSFile, feed: Int64, plan: ImportPlan) throws -> TableDiff {
        var comparesGroups = false
        if GroupedTables.column(for: file) != nil {
            if let existing = plan.existing, existing.tables[file] != nil {
                comparesGroups = try !existing.tablesWithRows.contains(file) || FeedGroups.exist(db, feed: feed, file: file)
            }
            if !comparesGroups { try FeedGroups.delete(db, feed: feed, tables: [file]) }
        }
        return try TableDiff(db, file: file, feed: feed, comparesGroups: comparesGroups)
    }

    /// Compares the staged table with the store and writes the differences.
    private func applyPendingDiff(_ db: Database, _ writer: inout WriterState) throws {
        if let feed = writer.pendingDiff?.feed, let decision = try writer.pendingDiff?.filter?.finish() {
            writer.kept(decision.skippedRows, of: nil)
            try stage(decision.stage, db, &writer, feed: feed)
        }
        guard let diff = writer.pendingDiff else { return }
        writer.pendingDiff = nil
        let clock = ContinuousClock()
        let start = clock.now
        writer.changesByTable[diff.file] = try diff.apply(db) { self.isCancelled }
        writer.diffDuration += clock.now - start
    }

    /// After the last row of an incremental import: the last table's diff, the parsed tables that had
    /// no row (their stored rows are deleted), and the tables a whole feed no longer holds.
    private func finishDiff(_ db: Database, _ plan: ImportPlan, _ writer: inout WriterState, feed: Int64) throws {
        try applyPendingDiff(db, &writer)
        for file in writer.directTables {
            writer.changesByTable[file] = TableChanges(inserted: writer.rowsByTable[file] ?? 0)
        }
        for file in GTFSFile.loadOrder where plan.tablesToParse.contains(file) && writer.changesByTable[file] == nil {
            writer.pendingDiff = try makeDiff(db, file: file, feed: feed, plan: plan)
            try applyPendingDiff(db, &writer)
        }
        for file in GTFSFile.loadOrder where plan.removed.contains(file) {
            try GTFSSchema.deleteRows(db, of: [file], feed: feed)
            writer.changesByTable[file] = TableChanges(deleted: db.changesCount)
        }
    }

    /// After the last row: indexes, the reference checks, the feed's new version (`feed_tables`, `feeds`),
    /// the import's row in `imports`, and the import's facts in `gtfs_meta`.
    private func finishLoad(
        _ db: Database, _ plan: ImportPlan, _ writer: inout WriterState, _ summary: inout ImportSummary, feed: Int64,
        startDate: Date
    ) throws {
        // Every row is stored or refused by now (an incremental import stages a table's last groups when
        // it ends): a file with more rejected rows than the limit fails the import here, before the commit.
        if let feedSummary = writer.feedSummary {
            for table in writer.tableImports(feedSummary, maxErrors: 1)
            where !options.maxRejected.allows(rejected: table.rowsRejected, of: table.rowsRead) {
                throw ImportError.tooManyRejected(
                    file: table.fileName, rejected: table.rowsRejected, read: table.rowsRead, limit: options.maxRejected,
                    first: table.errors.first)
            }
        }
        let clock = ContinuousClock()
        // Loading: from the start of writing to the index build (a diff included, an incremental import's hashing not).
        summary.loadDuration = clock.now - writer.loadStart
        report(writer, phase: .buildingIndexes)
        let indexStart = clock.now
        try GTFSSchema.createIndexes(db)
        summary.indexDuration = clock.now - indexStart

        if options.checksReferences {
            report(writer, phase: .checkingReferences)
            let checkStart = clock.now
            let touched = plan.incremental ? Set(writer.changesByTable.filter { !$0.value.isEmpty }.keys) : Set(plan.replaced)
            for check in ReferenceCheck.all where check.involves(touched) {
                if isCancelled { throw CancellationError() }
                summary.integrity.checksRun += 1
                if let finding = try check.run(db, feed: feed) { summary.integrity.findings.append(finding) }
            }
            try ReferenceCheck.dropScratch(db)
            summary.integrityDuration = clock.now - checkStart
        }

        // The feed's new version.
        var loaded: [GTFSFile: FeedCatalog.TableState] = [:]
        var rejected = 0
        if let feedSummary = writer.feedSummary {
            // The zip's CRC-32 of each file, checked as the parser read it to its end.
            let declaredCRC32 = Dictionary(try source.entries().map { ($0.fileName, $0.declaredCRC32) }) { first, _ in first }
            for table in writer.tableImports(feedSummary, maxErrors: 0) {
                loaded[table.file] = FeedCatalog.TableState(
                    contentHash: table.contentHash, rowsRead: table.rowsRead, rowsStored: table.rowsStored,
                    rowsRejected: table.rowsRejected, contentCRC32: declaredCRC32[table.fileName] ?? nil)
                rejected += table.rowsRejected
                if !plan.incremental { writer.changesByTable[table.file, default: TableChanges()].inserted = table.rowsStored }
            }
        }
        let emptied = plan.incremental ? plan.removed : Set(plan.replaced).subtracting(loaded.keys)
        try FeedCatalog.recordTables(db, feed: feed, loaded: loaded, emptied: emptied)
        let contentHash = try FeedCatalog.contentHash(db, feed: feed)
        let changes = writer.changesByTable.values.reduce(TableChanges(), +)
        let unchangedElsewhere = plan.unchanged.keys.reduce(0) { $0 + (plan.existing?.tables[$1]?.rowsStored ?? 0) }
        var record = FeedCatalog.ImportRecord(
            feedName: options.feed, source: Self.describe(source), contentHash: contentHash, startedAt: startDate,
            kind: plan.incremental ? .incremental : .full, outcome: "completed")
        record.inserted = changes.inserted
        record.updated = changes.updated
        record.deleted = changes.deleted
        record.unchanged = changes.unchanged + unchangedElsewhere
        record.rejected = rejected
        let importID = try FeedCatalog.record(db, record)
        try FeedCatalog.setCurrentVersion(db, feed: feed, source: Self.describe(source), importID: importID, contentHash: contentHash)
        summary.importID = importID
        summary.contentHash = contentHash

        let facts: [(String, String)] = [
            ("last_import_source", Self.describe(source)),
            ("last_import_completed_at", ISO8601DateFormatter().string(from: Date())),
        ]
        for (key, value) in facts {
            try db.execute(sql: "INSERT OR REPLACE INTO gtfs_meta (key, value) VALUES (?, ?)", arguments: [key, value])
        }
    }

    /// Appends a failed or cancelled import to `imports`, after its transaction was rolled back.
    private func recordFailure(_ error: any Error, store: GTFSStore, kind: ImportSummary.Kind, startDate: Date) {
        let mapped = importError(error)
        var record = FeedCatalog.ImportRecord(
            feedName: options.feed, source: Self.describe(source), contentHash: nil, startedAt: startDate, kind: kind,
            outcome: mapped.isCancellation ? "cancelled" : "failed")
        record.message = mapped.description
        store.pool.writeWithoutTransaction { db in
            // The rolled-back transaction may have spilled pages into the WAL: give their space back first,
            // so that a full disk is not left full, the row below has room, and the next open does not
            // rebuild a large WAL index on a full file system.
            GTFSStore.checkpoint(db)
            // Best effort: the import's own error is what the caller receives. A store that cannot take this
            // row (a disk still full, a read-only file) failed the import for the same reason, which that
            // error names.
            _ = try? db.inTransaction(.immediate) {
                try FeedCatalog.record(db, record)
                return .commit
            }
            GTFSStore.checkpoint(db)
        }
    }

    /// Offers a phase change to the reporter.
    private func report(_ writer: WriterState, phase: ImportProgress.Phase) {
        phaseObserver.withLock { $0 }?(phase, "")
        let bytes = parsedBytes.load(ordering: .relaxed)
        let total = totalBytes.load(ordering: .relaxed)
        reporter.offer(writer.progress(phase: phase, bytesRead: bytes, totalBytes: total))
    }

    // MARK: - Helpers

    /// The tables of the source's `entries`, refusing a source that holds none.
    private static func importedTables(_ entries: [FeedEntry], of source: FeedSource) throws -> Set<GTFSFile> {
        let tables = Set(entries.compactMap(\.table))
        guard !tables.isEmpty else {
            throw GTFSError(.emptyFile, file: describe(source), message: "holds no file of the GTFS reference (agency.txt, stops.txt, …)")
        }
        return tables
    }

    /// A path or `<stdin>` for messages and `gtfs_meta`.
    static func describe(_ source: FeedSource) -> String {
        switch source {
        case .file(let path, _), .directory(let path), .zip(let path): path
        case .standardInput(let table): "<stdin> (\(table.fileName))"
        case .files(let paths): paths.joined(separator: ", ")
        }
    }

    /// Maps what the stages throw to ``ImportError``.
    private func importError(_ error: any Error) -> ImportError {
        switch error {
        case let error as ImportError:
            return error
        case _ where isCancelled, is CancellationError:
            return .cancelled(stoppedAt: nil)
        case let error as GTFSError:
            return .invalidFeed(error)
        case let error as StoreError:
            return .store(error)
        case let error as DatabaseError:
            return .database(path: databasePath, message: error.message ?? "\(error.resultCode)", code: error.extendedResultCode)
        default:
            return .invalidFeed(GTFSError(.unreadable, file: Self.describe(source), message: "\(error)"))
        }
    }
}
