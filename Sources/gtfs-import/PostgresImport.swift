import Dispatch
import GTFS
import GTFSPostgres
import Platform
import Synchronization
import ToolSupport

extension ImportCommand {
    /// Whether `--db` names a PostgreSQL server rather than a file.
    static func isPostgres(_ db: String) -> Bool {
        db.hasPrefix("postgresql:") || db.hasPrefix("postgres:")
    }

    /// Imports into PostgreSQL: one transaction, the summary per file. SIGINT and SIGTERM cancel it: the
    /// server stops the running statement and the transaction rolls back.
    func runPostgres(_ source: FeedSource) -> Never {
        let store: PostgresStore
        do {
            store = try PostgresStore(connectionString: db, schema: schema)
        } catch {
            fail("\(error); nothing was imported")
        }
        let canceller = store.canceller
        let target = store.target
        let signals = Mutex<SignalCancellation?>(nil)
        let handler = SignalCancellation {
            canceller.cancel()
            // The import may be waiting for input (standard input) and not see the cancel: after a second,
            // end the process; the server rolls back the transaction of a closed connection.
            DispatchQueue.global().asyncAfter(deadline: .now() + 1) {
                let received = signals.withLock { $0?.received }
                StandardError.line("cancelled by \(received?.name ?? "a signal"); \(target) is unchanged")
                System.exit(received?.exitStatus ?? GTFSImportCommand.Status.failed)
            }
        }
        signals.withLock { $0 = handler }
        do {
            let summary = try store.importFeed(from: source, named: feed)
            store.close()
            for (file, rows) in summary.rowsStored.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                print("\(file.rawValue) \(rows)")
            }
            for message in summary.rejected.values.joined() { StandardError.line(message) }
            for finding in summary.integrity.findings { print("reference: \(finding)") }
            print("Imported into \(target), schema \(schema)")
            System.exit(summary.rowsRejected > 0 ? GTFSImportCommand.Status.rejectedRows : 0)
        } catch is CancellationError {
            let received = handler.received
            StandardError.line("cancelled by \(received?.name ?? "request"); \(target) is unchanged")
            System.exit(received?.exitStatus ?? GTFSImportCommand.Status.failed)
        } catch {
            fail("\(error); nothing was imported")
        }
    }
}
