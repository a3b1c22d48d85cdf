import GRDB
import GTFS

/// Loads a table's rows into a staging copy and applies them as a diff against the stored rows (see
/// ``TableDiff``). A grouped table whose groups the store knows stages only the groups whose digest or row
/// count differs (``GroupFilter``); one whose groups are unknown stages every row and records the new
/// digests (``GroupRecorder``).
struct DiffLoader: TableLoader {
    private let inserter: RowInserter
    private var diff: TableDiff
    private var recorder: GroupRecorder?
    private let isCancelled: () -> Bool
    private let changes: ChangeRecorder?

    /// Prepares the diff of `file`'s table.
    ///
    /// - Parameters:
    ///   - comparesGroups: whether the store's group digests of the table are complete (a table it held no
    ///     row in counts as complete). Otherwise the stored digests, which no longer describe the table,
    ///     are forgotten and new ones recorded.
    ///   - maxHeldGroupRows: the most rows of one group held in memory (see ``GroupFilter``).
    ///   - changes: told of every row the diff changes.
    init(
        _ db: Database, file: GTFSFile, comparesGroups: Bool, maxHeldGroupRows: Int, inserter: RowInserter, changes: ChangeRecorder?,
        isCancelled: @escaping () -> Bool
    ) throws {
        self.inserter = inserter
        self.changes = changes
        self.isCancelled = isCancelled
        let grouped = GroupedTables.column(for: file) != nil
        if grouped && !comparesGroups { try FeedGroups.delete(db, feed: inserter.feed, tables: [file]) }
        diff = try TableDiff(db, file: file, feed: inserter.feed, comparesGroups: grouped && comparesGroups, maxHeldGroupRows: maxHeldGroupRows)
        if grouped && diff.filter == nil { recorder = try GroupRecorder(db, file: file, feed: inserter.feed) }
    }

    mutating func store(_ parsed: ParsedBatch, _ db: Database, _ writer: inout WriterState) throws {
        if let runs = parsed.runs, let decision = try diff.filter?.add(runs, of: parsed.batch) {
            writer.kept(decision.skippedRows)
            try stage(decision.stage, db, &writer)
            return
        }
        let refused = try inserter.insert(parsed.batch, into: diff.stagingTable, db, &writer)
        try recorder?.record(parsed.runs ?? [], of: parsed.batch, refused: refused)
    }

    mutating func finish(_ db: Database, _ writer: inout WriterState) throws -> TableChanges? {
        try recorder?.finish()
        recorder = nil
        if let decision = try diff.filter?.finish() {
            writer.kept(decision.skippedRows)
            try stage(decision.stage, db, &writer)
        }
        let clock = ContinuousClock()
        let start = clock.now
        defer { writer.diffDuration += clock.now - start }
        return try diff.apply(db, changes: changes, isCancelled: isCancelled)
    }

    /// Stages the rows of the groups the filter found changed; a group the store refuses a row of loses its digest.
    private mutating func stage(_ groups: [PendingGroup], _ db: Database, _ writer: inout WriterState) throws {
        guard let batch = PendingGroup.gather(groups) else { return }
        let refused = try inserter.insert(batch, into: diff.stagingTable, db, &writer)
        for position in owners(of: refused, partSizes: groups.lazy.map(\.segmentRows)) {
            if let key = groups[position].key { try diff.filter?.invalidate(key) }
        }
    }
}
