import GRDB
import GRDBSQLite

/// A commit every `rowsPerCommit` rows, so a live view sees rows arrive; the store's indexes stay in place,
/// so live queries stay fast. A failure or a cancel keeps what was committed and records where it stopped
/// in `gtfs_meta` (`import_stopped_at`, and `ImportError.cancelled(stoppedAt:)`).
struct BatchedCommit: CommitPolicy {
    let rowsPerCommit: Int
    /// Maps a failure to the error the caller receives (for the message when recording the stop fails too).
    let describe: (any Error) -> ImportError
    /// Whether the import was cancelled.
    let isCancelled: () -> Bool

    func run(_ db: Database, _ writer: inout ImportWriter, _ summary: inout ImportSummary) throws -> Bool {
        do {
            var finished = false
            var first = true
            while !finished {
                try db.inTransaction(.immediate) {
                    if first { try writer.begin(db, dropsIndexes: false) }
                    finished = try writer.load(db, commitEvery: max(1, rowsPerCommit))
                    if finished {
                        try writer.finishTables(db)
                        try writer.complete(db, &summary)
                        try db.execute(sql: "DELETE FROM gtfs_meta WHERE key = 'import_stopped_at'")
                        writer.report(.committing)
                    }
                    return .commit
                }
                writer.state.commit()
                first = false
            }
            return true
        } catch {
            throw recordStop(after: error, db, writer)
        }
    }

    /// Records where the import stopped (what was committed stays), and gives the error to throw.
    private func recordStop(after error: any Error, _ db: Database, _ writer: ImportWriter) -> any Error {
        // Without the interrupt: the cancel already stopped the load, and this write must run.
        sqlite3_progress_handler(db.sqliteConnection, 0, nil, nil)
        let point = writer.state.stopPoint
        let cancelled = isCancelled() || error is CancellationError
        do {
            try db.inTransaction(.immediate) {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO gtfs_meta (key, value) VALUES ('import_stopped_at', ?)", arguments: [point.description])
                return .commit
            }
        } catch let recordError {
            // The first failure is what the caller needs (a full disk fails this write too); a cancel
            // still reports its stop point through the error.
            if cancelled { return ImportError.cancelled(stoppedAt: point) }
            let first = describe(error)
            return ImportError.database(
                path: writer.databasePath, message: "\(first); recording where the import stopped failed too: \(describe(recordError))",
                code: first.databaseCode)
        }
        return cancelled ? ImportError.cancelled(stoppedAt: point) : error
    }
}
