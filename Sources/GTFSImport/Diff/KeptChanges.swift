import GRDB
import GTFS

/// The changes of an import kept in the store's `changes` table (`ImportOptions.keepsChanges`), so that
/// an app or a server can ask what changed since import N and send clients only that.
///
/// Each row of an incremental import is one `RowChange`: its table, kind, key and, for an update, the
/// changed columns with old and new values, as JSON objects of the values the store holds. A full import
/// replaces tables whole: it keeps one `replace` row per table instead of every row. The rows are written
/// inside the import's transaction under import 0 and get the import's id when it is recorded, so a failed
/// import keeps none.
final class KeptChanges: @unchecked Sendable {
    // Used on the import's writer thread only.
    private let insert: RawStatement
    private let feedName: String
    /// Whether row changes are kept (an incremental import) or only replaced tables (a full one).
    private let keepsRows: Bool
    private var sequence: Int64 = 0
    private var failure: (any Error)?

    /// Prepares the inserts of one import of the feed `feedName`.
    /// - Throws: `DatabaseError`.
    init(_ db: Database, feedName: String, keepsRows: Bool) throws {
        self.feedName = feedName
        self.keepsRows = keepsRows
        insert = try RawStatement(
            db, sql: "INSERT INTO changes (import_id, seq, feed_name, table_name, kind, key, columns) VALUES (0, ?, ?, ?, ?, ?, ?)",
            cached: false)
    }

    /// Keeps one row change (of an incremental import).
    func keep(_ change: RowChange) {
        guard keepsRows, failure == nil else { return }
        write(
            table: GTFSSchema.tableName(for: change.file), kind: change.kind.rawValue, key: JSONLiteral.key(of: change),
            columns: JSONLiteral.columns(of: change))
    }

    /// Ends the import's changes: a full import keeps a `replace` row for each of `replaced`, then every
    /// row gets the import's id.
    /// - Throws: the first failure to write a change, `DatabaseError`.
    func finish(_ db: Database, importID: Int64, replaced: [GTFSFile]) throws {
        if !keepsRows {
            for file in replaced { write(table: GTFSSchema.tableName(for: file), kind: "replace", key: nil, columns: nil) }
        }
        if let failure { throw failure }
        try db.execute(sql: "UPDATE changes SET import_id = ? WHERE import_id = 0", arguments: [importID])
    }

    private func write(table: String, kind: String, key: String?, columns: String?) {
        sequence += 1
        insert.bind(1, sequence)
        insert.bind(2, feedName)
        insert.bind(3, table)
        insert.bind(4, kind)
        if let key { insert.bind(5, key) } else { insert.bind(5, nil as Int64?) }
        if let columns { insert.bind(6, columns) } else { insert.bind(6, nil as Int64?) }
        do {
            _ = try insert.execute()
        } catch {
            failure = error
        }
    }
}
