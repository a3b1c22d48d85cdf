import Foundation
import GRDB
import GRDBSQLite
import GTFS
import Synchronization

/// One import, start to end. ``ImportOperation`` and ``GTFSStore/importFeed(from:options:progressQueue:progress:)``
/// are thin adapters over it.
///
/// The story: check the options, find the database file and take its lock (``ImportLock``); a first import
/// into a path that holds nothing builds a new file aside (``NewDatabaseFile``), any other opens the store
/// and plans (``ImportPlan``): full, or incremental after hashing the files, which may find nothing to do.
/// Then the parser runs on its own thread (``ImportPipeline``) while an ``ImportWriter`` stores its batches
/// through a loader per table, inside the transactions of a ``CommitPolicy``; the result is an
/// ``/GTFSStoreCore/ImportSummary``, or a failure recorded in `imports` and thrown as an ``/GTFSStoreCore/ImportError``.
final class ImportRun: FeedImport {
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
    let pipeline = ImportPipeline()
    /// Called on the writer's thread before the first row of each file is stored and as each later phase
    /// begins, with the file name while loading (tests cancel there to hit a phase deterministically).
    let phaseObserver = Mutex<(@Sendable (ImportProgress.Phase, String) -> Void)?>(nil)

    init(source: FeedSource, destination: Destination, options: ImportOptions, reporter: ProgressReporter) {
        self.source = source
        self.destination = destination
        self.options = options
        self.reporter = reporter
    }

    /// The database file, for messages.
    var databasePath: String {
        switch destination {
        case .store(let store): store.path
        case .path(let path): path
        }
    }

    /// Whether ``cancel()`` was called.
    var isCancelled: Bool { pipeline.isCancelled }

    /// Stops the import: the parser at its next batch or poll, a waiting writer at once, a running SQLite
    /// statement within a few thousand VM steps; in atomic mode the database stays as it was.
    func cancel() { pipeline.cancel() }

    /// Runs the import on the calling thread (it blocks until the end).
    ///
    /// - Returns: the summary of a completed import.
    /// - Throws: ``/GTFSStoreCore/ImportError``; in atomic mode the database is then unchanged.
    func run() throws(ImportError) -> ImportSummary {
        do {
            return try runImport()
        } catch {
            throw importError(error)
        }
    }

    // MARK: - The story

    private func runImport() throws -> ImportSummary {
        let start = ContinuousClock.now
        let startDate = Date()
        try options.validate()
        try pipeline.checkCancelled()
        let entries = try source.entries().filter { $0.table != nil }
        let imported = try Self.importedTables(entries, of: source)
        // The file the path leads to: a store is created at the end of a dangling symbolic link, not at the link.
        let file = DatabasePath.resolved(databasePath)
        if let problem = DatabasePath.problem(file) { throw StoreError.notAGTFSDatabase(path: databasePath, reason: problem) }
        let lock = try ImportLock.acquire(for: file, wait: options.lockWait) {
            observe(.waiting, "")
            reporter.offer(WriterState(start: start).progress(phase: .waiting))
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
                return try importIntoNewFile(newFile, plan: plan(imported, existing: nil, incremental: false), start, startDate)
            }
            let full = plan(imported, existing: nil, incremental: false)
            // Not with a handler of changes or of the commit: a build aside that turns out not replaceable
            // runs again in place, and would tell them twice.
            if options.mode == .atomic, options.update == .full, options.changeHandler == nil, options.beforeCommit == nil, source.isWholeFeed,
                Set(full.replaced) == Set(GTFSFile.allCases), let probe = ReplacedDatabase.probe(file, feed: options.feed)
            {
                try DiskSpace.check(entries, databasePath: file)
                if let summary = try importReplacing(file, probe: probe, plan: full, start, startDate) { return summary }
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
            var plan = plan(imported, existing: existing, incremental: incremental)
            guard incremental, let existing else { return try load(into: store.pool, plan, start, startDate) }
            let hashStart = ContinuousClock.now
            observe(.hashing, "")
            reporter.offer(WriterState(start: start).progress(phase: .hashing))
            let assumed = try plan.assumeUnchangedFiles(in: source, stored: existing, options: options.parseOptions) { !self.isCancelled }
            let hashedFirst = ContinuousClock.now - hashStart
            if !assumed.isEmpty {
                // The files whose zip CRC-32 matches are hashed while the others load (see HashConfirmation).
                let confirmation = HashConfirmation(assumed, options: options.parseOptions) { [pipeline] in pipeline.isCancelled }
                defer { confirmation.finish() }
                plan.confirmation = confirmation
                if !plan.isNoChange {
                    do {
                        var summary = try load(into: store.pool, plan, start, startDate)
                        summary.hashDuration = hashedFirst + confirmation.duration
                        return summary
                    } catch is ImportPlan.Outdated where !isCancelled {}
                } else if confirmation.confirmed() {
                    return noChangeSummary(plan, hashDuration: ContinuousClock.now - hashStart, start: start)
                }
                // A file with the stored CRC-32 has other content: hash every file first, and start again.
                plan = self.plan(imported, existing: existing, incremental: incremental)
                try plan.findUnchangedFiles(in: source, stored: existing, options: options.parseOptions) { !self.isCancelled }
            }
            let hashDuration = ContinuousClock.now - hashStart
            if plan.isNoChange { return noChangeSummary(plan, hashDuration: hashDuration, start: start) }
            var summary = try load(into: store.pool, plan, start, startDate)
            summary.hashDuration = hashDuration
            return summary
        } catch {
            recordFailure(error, store: store, kind: kind, startDate: startDate)
            throw error
        }
    }

    /// The plan of an import of the `imported` tables, given what the store holds of the feed.
    private func plan(_ imported: Set<GTFSFile>, existing: FeedState?, incremental: Bool) -> ImportPlan {
        ImportPlan(
            imported: imported, existing: existing, incremental: incremental,
            replaceAll: (options.replacement ?? (source.isWholeFeed ? .allTables : .importedTables)) == .allTables)
    }

    /// Parses the tables the plan reads and stores them under the commit policy the options ask for.
    ///
    /// `afterCommit` runs once the import has committed, before the summary's duration is taken and the
    /// `finished` progress is reported.
    func load(
        into database: any DatabaseWriter, _ plan: ImportPlan, _ start: ContinuousClock.Instant, _ startDate: Date,
        replacedRows: [GTFSFile: Int] = [:], afterCommit: () throws -> Void = {}
    ) throws -> ImportSummary {
        var parseOptions = options.parseOptions
        parseOptions.tables = plan.incremental ? plan.tablesToParse : nil
        let channel = pipeline.start(source, options: parseOptions, maxBatchesInFlight: options.maxBatchesInFlight)
        defer { pipeline.stop() }
        var writer = ImportWriter(
            plan: plan, databasePath: databasePath, options: options, source: source, pipeline: pipeline, channel: channel,
            reporter: reporter, start: start, startDate: startDate, observe: observe)
        writer.replacedRows = replacedRows
        var summary = ImportSummary()
        summary.feed = options.feed
        summary.kind = plan.incremental ? .incremental : .full
        summary.mode = options.mode
        summary.replacedTables = plan.replaced
        let policy: any CommitPolicy =
            switch options.mode {
            case .atomic: AtomicCommit()
            case .batched(let rows): BatchedCommit(rowsPerCommit: rows, describe: importError) { self.isCancelled }
            }
        let wrote = try database.writeWithoutTransaction { db in
            // Start with every committed page copied into the database file: if this import fails, the WAL
            // then holds only its own uncommitted pages, and the checkpoint after the failure can give their
            // space back even on a full disk.
            GTFSStore.checkpoint(db, truncating: false)
            let pipeline = Unmanaged.passRetained(self.pipeline)
            sqlite3_progress_handler(db.sqliteConnection, 1000, { context in
                guard let context else { return 0 }
                return Unmanaged<ImportPipeline>.fromOpaque(context).takeUnretainedValue().isCancelled ? 1 : 0
            }, pipeline.toOpaque())
            defer {
                sqlite3_progress_handler(db.sqliteConnection, 0, nil, nil)
                pipeline.release()
            }
            if plan.incremental { try TableDiff.attachScratch(db) }
            defer { if plan.incremental { TableDiff.detachScratch(db) } }
            // The kept changes' statement goes with the transaction: the connection may close right after.
            defer { writer.keeper.kept = nil }
            return try policy.run(db, &writer, &summary)
        }
        if wrote { database.writeWithoutTransaction { GTFSStore.checkpoint($0) } }
        try afterCommit()
        guard let feed = writer.state.feedSummary else { throw CancellationError() }
        summary.tables = plan.summaryTables(writer.state.tableImports(feed, maxErrors: options.maxStoredErrors), changes: writer.state.changesByTable)
        // The parser's warnings first; the completion's (the time zone, say) follow.
        summary.warnings = feed.warnings + summary.warnings
        summary.skippedFiles = feed.skippedFiles
        if let empty = emptyFeedWarning(summary) { summary.warnings.append(empty) }
        summary.bytesRead = feed.bytesRead
        summary.duration = .now - start
        summary.diffDuration = writer.state.diffDuration
        var final = writer.state.progress(phase: .finished, bytesRead: feed.bytesRead, totalBytes: feed.bytesRead)
        final.fileName = ""
        reporter.offer(final)
        return summary
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
        summary.skippedFiles = (try? source.entries().filter { $0.table == nil }.map(\.fileName)) ?? []
        // Every file was read once, to hash it.
        summary.bytesRead = plan.hashedBytes
        var final = WriterState(start: start).progress(phase: .finished, bytesRead: summary.bytesRead, totalBytes: summary.bytesRead)
        final.fileName = ""
        reporter.offer(final)
        return summary
    }

    /// Appends a failed or cancelled import to `imports`, after its transaction was rolled back.
    func recordFailure(_ error: any Error, store: GTFSStore, kind: ImportSummary.Kind, startDate: Date) {
        let mapped = importError(error)
        var record = FeedCatalog.ImportRecord(
            feedName: options.feed, source: source.storedDescription, contentHash: nil, startedAt: startDate, kind: kind,
            outcome: mapped.isCancellation ? "cancelled" : "failed")
        record.message = mapped.description
        store.pool.writeWithoutTransaction { db in
            // The rolled-back transaction may have spilled pages into the WAL: give their space back first,
            // so that a full disk is not left full, the row below has room, and the next open does not
            // rebuild a large WAL index on a full file system.
            GTFSStore.checkpoint(db, patience: Self.failureCheckpointPatience)
            // Best effort: the import's own error is what the caller receives. A store that cannot take this
            // row (a disk still full, a read-only file) failed the import for the same reason, which that
            // error names.
            _ = try? db.inTransaction(.immediate) {
                try FeedCatalog.record(db, record)
                return .commit
            }
            GTFSStore.checkpoint(db, patience: Self.failureCheckpointPatience)
        }
    }

    /// How long the checkpoints after a failure or a cancel wait for readers: the caller is waiting for the
    /// error, and a WAL a reader keeps is emptied by the next write.
    private static let failureCheckpointPatience = Duration.milliseconds(500)

    /// Tells the phase observer (tests) that `phase` begins.
    private func observe(_ phase: ImportProgress.Phase, _ fileName: String) {
        phaseObserver.withLock { $0 }?(phase, fileName)
    }

    // MARK: - Helpers

    /// A whole feed whose import leaves no stops, routes or trips: a feed of header-only files imports, but
    /// holds nothing to query, which is worth saying.
    private func emptyFeedWarning(_ summary: ImportSummary) -> GTFSWarning? {
        guard source.isWholeFeed else { return nil }
        let core: [GTFSFile] = [.stops, .routes, .trips]
        let hasRows = core.contains { file in
            guard let table = summary.table(file) else { return false }
            return table.rowsStored > 0 || table.isUnchangedFile || table.changes.unchanged > 0
        }
        guard !hasRows else { return nil }
        return GTFSError(.emptyFile, file: source.storedDescription, message: "holds no stops, routes or trips: the feed is empty")
    }

    /// The tables of the source's `entries`, refusing a source that holds none.
    private static func importedTables(_ entries: [FeedEntry], of source: FeedSource) throws -> Set<GTFSFile> {
        let tables = Set(entries.compactMap(\.table))
        guard !tables.isEmpty else {
            throw GTFSError(.emptyFile, file: source.storedDescription, message: "holds no file of the GTFS reference (agency.txt, stops.txt, …)")
        }
        return tables
    }

    /// Maps what the stages throw to ``/GTFSStoreCore/ImportError``.
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
            var message = error.message ?? "\(error.resultCode)"
            if error.resultCode == .SQLITE_FULL, let temporary = DiskSpace.fullTemporaryFolder(databasePath: databasePath) {
                message += ": \(temporary)"
            }
            return .database(path: databasePath, message: message, code: error.extendedResultCode.rawValue)
        default:
            return .invalidFeed(GTFSError(.unreadable, file: source.storedDescription, message: "\(error)"))
        }
    }
}
