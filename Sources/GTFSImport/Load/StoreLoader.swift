import GRDB
import GTFS

/// Loads a table's rows straight into the store, and records the digest of each group of a grouped table
/// (``GroupRecorder``) so that the next import can compare group by group.
struct StoreLoader: TableLoader {
    private let inserter: RowInserter
    private var recorder: GroupRecorder?

    init(_ db: Database, file: GTFSFile, inserter: RowInserter) throws {
        self.inserter = inserter
        if GroupedTables.column(for: file) != nil { recorder = try GroupRecorder(db, file: file, feed: inserter.feed) }
    }

    mutating func store(_ parsed: ParsedBatch, _ db: Database, _ writer: inout WriterState) throws {
        let refused = try inserter.insert(parsed.batch, db, &writer)
        try recorder?.record(parsed.runs ?? [], of: parsed.batch, refused: refused)
    }

    mutating func finish(_ db: Database, _ writer: inout WriterState) throws -> TableChanges? {
        try recorder?.finish()
        recorder = nil
        return nil
    }
}
