import ArgumentParser
import Dispatch
import Foundation
import GTFS
import GTFSImport
import GTFSPostgres
import Platform
import Synchronization
import ToolSupport

extension ImportCommand {
    /// Whether `--db` names a PostgreSQL server rather than a file.
    static func isPostgres(_ db: String) -> Bool {
        PostgresStore.isConnectionString(db)
    }

    /// Opens the PostgreSQL store `--db` and `--schema` name, or ends the process with one line.
    static func openPostgres(_ db: String, schema: String, nothing: String) -> PostgresStore {
        do {
            return try PostgresStore(connectionString: db, schema: schema)
        } catch {
            fail("\(error); \(nothing)")
        }
    }

    /// Imports into PostgreSQL: one transaction, the same progress, summary, JSON and exit statuses as an
    /// import into SQLite. SIGINT and SIGTERM cancel it: the server stops the running statement and the
    /// transaction rolls back.
    func runPostgres(_ source: FeedSource) throws {
        let store = Self.openPostgres(db, schema: schema, nothing: "nothing was imported")
        store.usesPostGIS = !noPostgis
        let canceller = store.canceller
        let database = "\(store.target) schema \(schema)"
        let signals = Mutex<SignalCancellation?>(nil)
        let handler = SignalCancellation {
            // The import may be waiting for input (standard input) and not see the cancel, and a server that
            // does not answer (stopped, or its host gone) holds `PQcancel` for ever: a second after the
            // signal, whatever happens, the process ends; the server rolls back the transaction of a closed
            // connection. Scheduled first, and the cancel sent from a thread of its own, so neither waits.
            DispatchQueue.global().asyncAfter(deadline: .now() + 1) {
                let received = signals.withLock { $0?.received }
                StandardError.line("cancelled by \(received?.name ?? "a signal"); \(database) is unchanged")
                System.exit(received?.exitStatus ?? GTFSImportCommand.Status.failed)
            }
            Thread.detachNewThread { canceller.cancel() }
        }
        signals.withLock { $0 = handler }
        let progressQueue = DispatchQueue(label: "gtfs-import.progress")
        let line = quiet ? nil : ProgressLine(isTerminal: StandardError.isTerminal, database: database, queue: progressQueue)
        var progressHandler: (@Sendable (ImportProgress) -> Void)?
        if let line { progressHandler = { progress in line.show(progress) } }
        let summary: ImportSummary
        do {
            summary = try store.importFeed(
                from: source, options: options, progressQueue: progressQueue, progressHandler: progressHandler)
            progressQueue.sync { line?.finish() }
            store.close()
        } catch is CancellationError {
            progressQueue.sync { line?.finish() }
            let received = handler.received
            StandardError.line("cancelled by \(received?.name ?? "request"); \(database) is unchanged")
            System.exit(received?.exitStatus ?? GTFSImportCommand.Status.failed)
        } catch let error as ImportError {
            progressQueue.sync { line?.finish() }
            if case .busy = error { fail("\(error); nothing was imported (--wait SECONDS waits for it)") }
            fail("\(error); nothing was imported")
        } catch {
            progressQueue.sync { line?.finish() }
            fail("\(error); nothing was imported")
        }
        try report(summary, database: database)
    }
}
