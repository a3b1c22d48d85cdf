import Foundation
import GTFS
import GTFSStoreCore

/// The SQLite store under the `ImportDriver`: where an ``ImportRun`` writes its plan.
struct SQLiteWriter: StoreWriter {
    /// Where the plan is written.
    enum Target {
        /// The open store, in place.
        case store(GTFSStore)
        /// A new file built aside, given the path when complete (a first import).
        case newFile(NewDatabaseFile)
        /// A file built aside and renamed over the store at the path (a full import of its only feed).
        case replacing(String, ReplacedDatabase.Probe)
    }

    let run: ImportRun
    let target: Target
    /// The source's GTFS files, for the disk-space check.
    let entries: [FeedEntry]
    /// The database file the path leads to.
    let file: String
    let start: ContinuousClock.Instant
    let startDate: Date

    /// The writer waits for a plan's confirmation before it commits (see ``ImportWriter``).
    var confirmsHashesWhileLoading: Bool { true }

    func storedState() throws -> FeedState? {
        guard case .store(let store) = target else { return nil }
        return try store.pool.read { db in try FeedCatalog.state(db, name: run.options.feed) }
    }

    func begin(_ phase: ImportProgress.Phase) {
        run.observe(phase, "")
        run.reporter.offer(WriterState(start: start).progress(phase: phase))
    }

    func write(_ plan: ImportPlan) throws -> ImportSummary {
        switch target {
        case .store(let store):
            if !plan.incremental { try DiskSpace.check(entries, databasePath: file) }
            return try run.load(into: store.pool, plan, start, startDate)
        case .newFile(let newFile):
            return try run.importIntoNewFile(newFile, plan: plan, start, startDate)
        case .replacing(let file, let probe):
            return try run.importReplacing(file, probe: probe, plan: plan, start, startDate)
        }
    }

    func finishUnchanged(_ summary: ImportSummary) {
        var final = WriterState(start: start).progress(phase: .finished, bytesRead: summary.bytesRead, totalBytes: summary.bytesRead)
        final.fileName = ""
        run.reporter.offer(final)
    }
}
