import GRDB

/// The whole import in one transaction: begin, every table, the diffs' end, the completion, commit. An
/// incremental import whose diffs found nothing rolls back instead: not even its `imports` row is written.
struct AtomicCommit: CommitPolicy {
    func run(_ db: Database, _ writer: inout ImportWriter, _ summary: inout ImportSummary) throws -> Bool {
        var wrote = true
        try db.inTransaction(.immediate) {
            try writer.begin(db, dropsIndexes: true)
            _ = try writer.load(db, commitEvery: nil)
            try writer.finishTables(db)
            if writer.plan.incremental && writer.state.changesByTable.values.allSatisfy(\.isEmpty) {
                try writer.confirmAssumptions()
                // The rows are those the store holds: write nothing, not even the import's record.
                summary.changedNothing = true
                wrote = false
                return .rollback
            }
            try writer.complete(db, &summary)
            try writer.options.runBeforeCommit()
            writer.report(.committing)
            return .commit
        }
        return wrote
    }
}
