import Foundation
import GRDB
import GRDBSQLite
import GTFS
import Synchronization

/// One import, start to end. ``ImportOperation`` and ``GTFSStore/importFeed(from:options:progressQueue:progress:)``
/// are thin adapters over it.
///
/// The story: check the options, find the database file and take its lock (``ImportLock``); a first import
/// into a path that holds nothing builds a new file aside (``NewDatabaseFile``), any other opens the store.
/// The core's `ImportDriver` then plans over an ``SQLiteWriter``: full, or incremental
/// after hashing the files, which may find nothing to do. Then the parser runs on its own thread (``ImportPipeline``) while an ``ImportWriter`` stores its batches
/// through a loader per table, inside the transactions of a ``CommitPolicy``; the result is an
/// `ImportSummary`, or a failure recorded in `imports` and thrown as an `ImportError`.
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
    /// - Throws: `ImportError`; in atomic mode the database is then unchanged.
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
        let entries = try source.entries()
        let driver = try ImportDriver(source: source, entries: entries, options: options, start: start) { [pipeline] in pipeline.isCancelled }
        let tableEntries = entries.filter { $0.table != nil }
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
        func writer(_ target: SQLiteWriter.Target) -> SQLiteWriter {
            SQLiteWriter(run: self, target: target, entries: tableEntries, file: file, start: start, startDate: startDate)
        }
        let store: GTFSStore
        switch destination {
        case .store(let open):
            store = open
        case .path(let path):
            if !FileManager.default.fileExists(atPath: file) { try DiskSpace.check(tableEntries, databasePath: file) }
            if options.mode == .atomic, let newFile = try NewDatabaseFile.begin(at: file) {
                return try driver.run(writer(.newFile(newFile)))
            }
            // Not with a handler of changes or of the commit: a build aside that turns out not replaceable
            // runs again in place, and would tell them twice.
            if options.mode == .atomic, options.update == .full, options.changeHandler == nil, options.beforeCommit == nil, source.isWholeFeed,
                Set(driver.plan(existing: nil, incremental: false).replaced) == Set(GTFSFile.allCases),
                let probe = ReplacedDatabase.probe(file, feed: options.feed)
            {
                try DiskSpace.check(tableEntries, databasePath: file)
                do {
                    return try driver.run(writer(.replacing(file, probe)))
                } catch is ReplacedDatabase.NotReplaceable {}
            }
            store = try GTFSStore(path: path)
        }
        // From here on every outcome is recorded in `imports`.
        do {
            return try driver.run(writer(.store(store)))
        } catch {
            recordFailure(error, store: store, kind: driver.kind, startDate: startDate)
            throw error
        }
    }

    /// Parses the tables the plan reads and stores them under the commit policy the options ask for.
    ///
    /// `afterCommit` runs once the import has committed, before the summary's duration is taken and the
    /// `finished` progress is reported.
    func load(
        into database: any DatabaseWriter, _ plan: ImportPlan, _ start: ContinuousClock.Instant, _ startDate: Date,
        replacedRows: [GTFSFile: Int] = [:], afterCommit: () throws -> Void = {}
    ) throws -> ImportSummary {
        var parseOptions = options.parsing
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
        summary.tables = plan.summaryTables(writer.state.tableImports(feed, maxErrors: options.parsing.maxStoredErrors), changes: writer.state.changesByTable)
        // The parser's warnings first; the completion's (the time zone, say) follow.
        summary.warnings = feed.warnings + summary.warnings
        summary.skippedFiles = feed.skippedFiles
        summary.bytesRead = feed.bytesRead
        summary.duration = .now - start
        summary.diffDuration = writer.state.diffDuration
        var final = writer.state.progress(phase: .finished, bytesRead: feed.bytesRead, totalBytes: feed.bytesRead)
        final.fileName = ""
        reporter.offer(final)
        return summary
    }

    /// Appends a failed or cancelled import to `imports`, after its transaction was rolled back.
    func recordFailure(_ error: any Error, store: GTFSStore, kind: ImportSummary.Kind, startDate: Date) {
        let mapped = importError(error)
        var record = FeedCatalog.ImportRecord(
            feedName: options.feed, source: options.recordedSource(source), contentHash: nil, startedAt: startDate, kind: kind,
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
    func observe(_ phase: ImportProgress.Phase, _ fileName: String) {
        phaseObserver.withLock { $0 }?(phase, fileName)
    }

    // MARK: - Helpers

    /// Maps what the stages throw to `ImportError`.
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
            return .invalidFeed(GTFSError(.unreadable, file: options.recordedSource(source), message: "\(error)"))
        }
    }
}
