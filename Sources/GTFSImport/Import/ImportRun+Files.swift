import Foundation
import GTFSStoreCore

/// The imports that build a new database file aside instead of writing the one at the path.
extension ImportRun {
    /// A first import into a path that holds nothing: the whole feed into a new file, which gets its
    /// path only when complete. A failure deletes the file, so nothing records it.
    func importIntoNewFile(
        _ newFile: NewDatabaseFile, plan: ImportPlan, _ start: ContinuousClock.Instant, _ startDate: Date
    ) throws -> ImportSummary {
        do {
            return try load(into: newFile.queue, plan, start, startDate) {
                // Committed to the temporary file: the path still holds nothing, so a cancel still counts.
                try self.pipeline.checkCancelled()
                try newFile.install()
            }
        } catch {
            newFile.discard()
            throw error
        }
    }

    /// A full import that replaces the only feed of a file no one has open: built aside and renamed over
    /// it (see ``ReplacedDatabase``).
    /// - Throws: ``ReplacedDatabase/NotReplaceable`` when the file turned out not to be replaceable (opened
    ///   meanwhile): nothing changed, and the import runs in place.
    func importReplacing(
        _ file: String, probe: ReplacedDatabase.Probe, plan: ImportPlan, _ start: ContinuousClock.Instant, _ startDate: Date
    ) throws -> ImportSummary {
        guard let newFile = try NewDatabaseFile.begin(at: file, replacing: true) else { throw ReplacedDatabase.NotReplaceable() }
        do {
            try ReplacedDatabase.keepFeedNumber(probe, feed: options.feed, in: newFile)
            var offset: Int64 = 0
            var summary = try load(into: newFile.queue, plan, start, startDate, replacedRows: probe.rows) {
                offset = try ReplacedDatabase.carryOver(from: file, into: newFile)
                try self.pipeline.checkCancelled()
                try newFile.prepare()
                try ReplacedDatabase.switchIn(newFile, at: file, probe: probe)
            }
            // The import's id moved after the old file's history.
            summary.importID = summary.importID.map { $0 + offset }
            return summary
        } catch let error as ReplacedDatabase.NotReplaceable {
            newFile.discard()
            throw error
        } catch {
            newFile.discard()
            // The old file is as it was: its history records the failure, as an import in place would.
            if let store = try? GTFSStore(path: file) {
                recordFailure(error, store: store, kind: .full, startDate: startDate)
                try? store.close()
            }
            throw error
        }
    }
}
