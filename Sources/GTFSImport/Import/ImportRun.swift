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
    let source: FeedSource
    let databasePath: String
    let openStore: @Sendable () throws -> GTFSStore
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
        source: FeedSource, databasePath: String, openStore: @escaping @Sendable () throws -> GTFSStore,
        options: ImportOptions, reporter: ProgressReporter
    ) {
        self.source = source
        self.databasePath = databasePath
        self.openStore = openStore
        self.options = options
        self.reporter = reporter
        self.channel = BatchChannel(capacity: options.maxBatchesInFlight)
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
        if isCancelled { throw CancellationError() }
        let imported = try Self.importedTables(of: source)
        let replacement = options.replacement ?? (source.isWholeFeed ? .allTables : .importedTables)
        let replaced = replacement == .allTables ? GTFSFile.allCases : GTFSFile.allCases.filter(imported.contains)
        let store = try openStore()

        let parserDone = startParser()
        defer {
            channel.close()
            // A parser that is parsing stops at its next batch or poll, within milliseconds; one blocked
            // reading a pipe (standard input) stops when that read returns. Wait only briefly, so a cancel
            // never waits for the other end of a pipe.
            _ = parserDone.wait(timeout: .now() + .milliseconds(50))
        }

        var writer = WriterState(start: start, replaced: replaced)
        var summary = ImportSummary()
        summary.mode = options.mode
        summary.replacedTables = replaced
        try store.pool.writeWithoutTransaction { db in
            let interrupt = Unmanaged.passRetained(self)
            sqlite3_progress_handler(db.sqliteConnection, 1000, { context in
                guard let context else { return 0 }
                return Unmanaged<ImportRun>.fromOpaque(context).takeUnretainedValue().isCancelled ? 1 : 0
            }, interrupt.toOpaque())
            defer {
                sqlite3_progress_handler(db.sqliteConnection, 0, nil, nil)
                interrupt.release()
            }
            switch options.mode {
            case .atomic:
                try db.inTransaction(.immediate) {
                    try GTFSSchema.dropIndexes(db, on: Set(replaced))
                    try GTFSSchema.deleteAllRows(db, of: replaced)
                    _ = try load(db, &writer, commitEvery: nil)
                    try finishLoad(db, &writer, &summary)
                    report(writer, phase: .committing)
                    return .commit
                }
            case .batched(let rowsPerCommit):
                do {
                    var finished = false
                    var first = true
                    while !finished {
                        try db.inTransaction(.immediate) {
                            if first { try GTFSSchema.deleteAllRows(db, of: replaced) }
                            finished = try load(db, &writer, commitEvery: max(1, rowsPerCommit))
                            if finished {
                                try finishLoad(db, &writer, &summary)
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
        guard let feed = writer.feedSummary else { throw CancellationError() }
        summary.tables = writer.tableImports(feed, maxErrors: options.maxStoredErrors)
        summary.warnings = feed.warnings
        summary.bytesRead = feed.bytesRead
        summary.duration = clock.now - start
        var final = writer.progress(phase: .finished, bytesRead: feed.bytesRead, totalBytes: feed.bytesRead)
        final.fileName = ""
        reporter.offer(final)
        return summary
    }

    /// Starts the parser on its own thread, feeding the channel; the semaphore is signalled when it ends.
    private func startParser() -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        let parser = FeedParser(source: source, options: options.parseOptions)
        DispatchQueue(label: "GTFSImport.parse", qos: .userInitiated).async { [self] in
            let result = Result<FeedSummary, any Error> {
                try parser.parse(
                    shouldContinue: { !self.isCancelled },
                    progress: { state in
                        self.parsedBytes.store(state.bytesRead, ordering: .relaxed)
                        self.totalBytes.store(state.totalBytes ?? -1, ordering: .relaxed)
                    },
                    consume: { batch in try self.channel.put(batch) })
            }
            channel.finish(result)
            done.signal()
        }
        return done
    }

    /// Stores batches until the parser ends (`true`) or, in batched mode, until `commitEvery` rows
    /// have been stored since the last commit (`false`).
    private func load(_ db: Database, _ writer: inout WriterState, commitEvery: Int?) throws -> Bool {
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
                writer.feedSummary = feed
                return true
            case .batch(let batch):
                if isCancelled { throw CancellationError() }
                try store(batch, db, &writer)
                reporter.offer(
                    writer.progress(
                        phase: .loading, bytesRead: parsedBytes.load(ordering: .relaxed),
                        totalBytes: totalBytes.load(ordering: .relaxed)))
                if let commitEvery, writer.rowsSinceCommit >= commitEvery { return false }
            }
        }
    }

    /// Inserts one batch; rows the database refuses (a duplicate key) are rejected with an error that
    /// names the line, or, in strict mode, stop the import.
    private func store(_ batch: RecordBatch, _ db: Database, _ writer: inout WriterState) throws {
        if batch.fileName != writer.currentFile { phaseObserver.withLock { $0 }?(.loading, batch.fileName) }
        let strict = options.strict
        var refused: [GTFSError] = []
        let stored = try batch.insert(into: db) { index, error in
            let problem = Self.refusal(error, fileName: batch.fileName, line: batch.line(at: index))
            if strict { throw problem }
            refused.append(problem)
        }
        writer.stored(stored, refused: refused, of: batch, maxErrors: options.maxStoredErrors)
    }

    /// After the last row: indexes, the reference checks, and the import's facts in `gtfs_meta`.
    private func finishLoad(_ db: Database, _ writer: inout WriterState, _ summary: inout ImportSummary) throws {
        let clock = ContinuousClock()
        summary.loadDuration = clock.now - writer.start
        report(writer, phase: .buildingIndexes)
        let indexStart = clock.now
        try GTFSSchema.createIndexes(db)
        summary.indexDuration = clock.now - indexStart

        if options.checksReferences {
            report(writer, phase: .checkingReferences)
            let checkStart = clock.now
            let touched = Set(writer.replaced)
            for check in ReferenceCheck.all where check.involves(touched) {
                if isCancelled { throw CancellationError() }
                summary.integrity.checksRun += 1
                if let finding = try check.run(db) { summary.integrity.findings.append(finding) }
            }
            try ReferenceCheck.dropScratch(db)
            summary.integrityDuration = clock.now - checkStart
        }
        let facts: [(String, String)] = [
            ("last_import_source", Self.describe(source)),
            ("last_import_completed_at", ISO8601DateFormatter().string(from: Date())),
        ]
        for (key, value) in facts {
            try db.execute(sql: "INSERT OR REPLACE INTO gtfs_meta (key, value) VALUES (?, ?)", arguments: [key, value])
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

    /// The tables the source holds, refusing a source that holds none.
    private static func importedTables(of source: FeedSource) throws -> Set<GTFSFile> {
        let tables = Set(try source.entries().compactMap(\.table))
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

    /// The error for a row SQLite refused: a duplicate key, named by SQLite's message.
    static func refusal(_ error: DatabaseError, fileName: String, line: Int?) -> GTFSError {
        let message = error.message ?? "\(error.resultCode)"
        // "UNIQUE constraint failed: stop_times.trip_id, stop_times.stop_sequence"
        var columns: String?
        if let range = message.range(of: "constraint failed: ") {
            let names = message[range.upperBound...].split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces).split(separator: ".").last.map(String.init) ?? ""
            }
            if !names.contains(where: { $0.isEmpty || $0.contains(" ") }) { columns = names.joined(separator: ", ") }
            // "UNIQUE constraint failed: index 'transfers_key'": a key with optional parts.
            if let quoted = message[range.upperBound...].split(separator: "'").dropFirst().first,
                let keyColumns = SchemaV1.keyIndexColumns[String(quoted)]
            {
                columns = keyColumns.joined(separator: ", ")
            }
        }
        if error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY || error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            return GTFSError(.duplicateKey, file: fileName, line: line, column: columns, message: "repeats the key of an earlier row; rejected")
        }
        return GTFSError(.invalidValue, file: fileName, line: line, column: columns, message: "refused by the database: \(message)")
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
            return .database(path: databasePath, message: error.message ?? "\(error.resultCode)")
        default:
            return .invalidFeed(GTFSError(.unreadable, file: Self.describe(source), message: "\(error)"))
        }
    }
}
