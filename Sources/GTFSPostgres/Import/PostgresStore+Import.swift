import Foundation
public import GTFS
public import GTFSStoreCore
import Synchronization

extension PostgresStore {
    /// An import into this schema (`ImportOperation` runs it): one transaction, so other
    /// connections see the old version until the commit, and a failure, a cancel or a lost connection leaves
    /// the database as it was.
    ///
    /// As in the SQLite store, a feed the schema already holds is updated incrementally (unless
    /// `ImportOptions.update` is `.full`): files whose SHA-256 is unchanged are skipped, and
    /// each other file's rows are merged by key, so that only rows that differ are written. The same feed
    /// again writes nothing (`ImportSummary.changedNothing`). Options the store does not do
    /// (``capabilities-type.property``) are refused with `ImportError.invalidOption(option:problem:)`.
    public func makeImport(from source: FeedSource, options: ImportOptions, reporter: ProgressReporter) -> any FeedImport {
        PostgresImport(store: self, source: source, options: options, reporter: reporter)
    }

    /// Runs an import on the calling thread, `isCancelled` polled between batches (and the running statement
    /// cancelled by ``PostgresImport/cancel()``).
    func runImport(
        _ source: FeedSource, options: ImportOptions, reporter: ProgressReporter, isCancelled: @escaping @Sendable () -> Bool
    ) throws(ImportError) -> ImportSummary {
        try options.validate(for: capabilities)
        return try serially { () throws(ImportError) -> ImportSummary in
            do {
                return try exclusively("import") { try importInTransaction(source, options: options, reporter: reporter, isCancelled: isCancelled) }
            } catch {
                // A cancel asked for while the import failed outside its transaction (reading the source,
                // beginning) took effect with this failure: the next import must not see it.
                let requested = canceller.isRequested
                if requested { canceller.reset() }
                throw importError(error, cancelled: isCancelled() || requested)
            }
        }
    }

    /// The import's transaction: begun, run, committed (or rolled back when it changed nothing); after a
    /// failure, rolled back and logged in `imports`.
    private func importInTransaction(
        _ source: FeedSource, options: ImportOptions, reporter: ProgressReporter, isCancelled: @escaping @Sendable () -> Bool
    ) throws -> ImportSummary {
        let canceller = self.canceller
        if canceller.isRequested || isCancelled() {
            canceller.reset()
            throw CancellationError()
        }
        let run = PostgresImportRun(
            connection: connection, schema: schema, source: source, options: options, usesPostGIS: usesPostGIS, migrations: migrations,
            reporter: reporter, shouldContinue: { !canceller.isRequested && !isCancelled() })
        // A source that cannot be read or holds no GTFS file is refused before the server is asked anything.
        try run.prepare { self.sourceListed.withLock { $0 }?() }
        let started = try connection.query("SELECT now()::text", [], "read the clock").first?.first.flatMap { $0 } ?? ""
        // Read committed whatever the server's default: a statement sees what others committed before it
        // (PostGIS created by a concurrent import, see PostGIS.enable).
        try connection.execute("BEGIN ISOLATION LEVEL READ COMMITTED", "begin a transaction")
        do {
            try lock(waiting: options.lockWait)
            let summary = try run.run(startedAt: started)
            if !summary.changedNothing { try options.runBeforeCommit() }
            // An import that changes nothing leaves no trace, not even a created schema; a migration stays.
            try connection.execute(summary.changedNothing && !run.migrated ? "ROLLBACK" : "COMMIT", "commit")
            run.finished()
            return summary
        } catch {
            // The server's "canceling statement due to user request" is the cancel the caller asked for.
            let cancelled = canceller.isRequested || isCancelled() || error is CancellationError
            canceller.reset()
            let outcome = cancelled ? ImportError.cancelled(stoppedAt: nil) : importError(error, cancelled: false)
            // The log of a failed import is written after the rollback, when the schema has its tables.
            let log = """
                INSERT INTO \(schema).imports (feed_name, source, started_at, ended_at, kind, outcome, message)
                VALUES (\(connection.literal(options.feed)), \(connection.literal(options.recordedSource(source))), \(connection.literal(started))::timestamptz,
                    now(), '\(run.kind.rawValue)', '\(cancelled ? "cancelled" : "failed")', \(connection.literal(outcome.description)))
                """
            if cancelled {
                // A cancel returns at once: the server rolls back while the caller goes on. A schema this
                // import created has no imports table once rolled back: no second connection for it.
                connection.abandonTransaction()
                if !run.createsSchema { connection.logAside(log) }
                throw CancellationError()
            }
            _ = try? connection.execute("ROLLBACK", "roll back")
            _ = try? connection.execute(log, "log the import")
            throw error
        }
    }

    /// What the stages throw, as one `ImportError`: the server's errors as
    /// `ImportError.database(path:message:code:)` naming the server and schema (never a password).
    func importError(_ error: any Error, cancelled: Bool) -> ImportError {
        switch error {
        case let error as ImportError: return error
        case _ where cancelled, is CancellationError: return .cancelled(stoppedAt: nil)
        case let error as GTFSError: return .invalidFeed(error)
        case let error as PostgresError: return .database(path: error.target, message: "\(error.operation): \(error.message)")
        default: return .database(path: "\(target) schema \(schema)", message: "\(error)")
        }
    }

    /// The advisory lock that imports and removals of this schema hold, one at a time.
    private var lockKey: String { "gtfs-import:\(schema)" }

    /// Waits for other imports and removals of this schema to end (an advisory lock until the end of the
    /// transaction), at most `waiting` (`nil`: as long as it takes).
    func lock(waiting: Duration?) throws {
        // lock_timeout takes at most 2^31 - 1 ms (24.8 days); a longer wait is no limit at all.
        let milliseconds = waiting.map { max(1, ($0 / .milliseconds(1)).rounded(.up)) }.flatMap { $0 < Double(Int32.max) ? Int($0) : nil }
        if let milliseconds { try connection.execute("SET LOCAL lock_timeout = \(milliseconds)", "set lock_timeout") }
        do {
            _ = try connection.query("SELECT pg_advisory_xact_lock(hashtext($1))", [lockKey], "wait for other imports")
        } catch {
            // lock_not_available: the wait ran out.
            if error.sqlState == "55P03" { throw ImportError.busy(path: "\(target) schema \(schema)") }
            throw error
        }
        if milliseconds != nil { try connection.execute("SET LOCAL lock_timeout = 0", "set lock_timeout") }
    }
}

/// One import into a ``PostgresStore``, as `ImportOperation` runs it.
final class PostgresImport: FeedImport {
    private let store: PostgresStore
    private let source: FeedSource
    private let options: ImportOptions
    private let reporter: ProgressReporter
    /// Whether ``cancel()`` was called, and whether the import is running (a cancel then stops its statement).
    private let state = Mutex<(cancelled: Bool, running: Bool)>((false, false))

    init(store: PostgresStore, source: FeedSource, options: ImportOptions, reporter: ProgressReporter) {
        self.store = store
        self.source = source
        self.options = options
        self.reporter = reporter
    }

    func run() throws(ImportError) -> ImportSummary {
        let cancelledFirst = state.withLock { state in
            state.running = !state.cancelled
            return state.cancelled
        }
        if cancelledFirst { throw .cancelled(stoppedAt: nil) }
        defer { state.withLock { $0.running = false } }
        return try store.runImport(source, options: options, reporter: reporter) { [self] in self.state.withLock { $0.cancelled } }
    }

    /// Stops the import: the parse at its next batch, and the statement the server is running at once. The
    /// request to the server (`PQcancel`) waits for its answer, which a server that does not answer never
    /// gives: it goes from a thread of its own, and this returns at once.
    func cancel() {
        let running = state.withLock { state in
            state.cancelled = true
            return state.running
        }
        guard running else { return }
        let store = self.store
        Thread.detachNewThread { store.canceller.interrupt() }
    }
}
