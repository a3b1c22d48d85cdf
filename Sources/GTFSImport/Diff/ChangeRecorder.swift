import GRDB
import GTFS

/// Hands the rows an import changes to `ImportOptions.changeHandler`, as `RowChange` values: from the
/// merge walk of a diff (``TableDiff``), and from whole tables an import stores or removes.
struct ChangeRecorder {
    /// The feed's name, as the changes carry it.
    let feedName: String
    let handler: @Sendable (RowChange) -> Void
    /// Files the import assumed unchanged: no change goes out before they are confirmed, and none once
    /// one of them turned out changed (the import then starts again, see ``HashConfirmation``).
    var confirmation: HashConfirmation?

    /// Hands `change` to the handler, once the import's assumptions hold.
    private func send(_ change: RowChange) {
        if let confirmation, !confirmation.confirmed() { return }
        handler(change)
    }

    /// The columns that name a row of `file`'s table in a change: its key, or every column without one.
    static func keyColumns(of file: GTFSFile) -> [String] {
        let table = StoreTable(file)
        return table.keyColumns.isEmpty ? table.columns : table.keyColumns
    }

    /// Reports every row of `feed` in `file`'s table as `kind`: the rows a table stored whole, or the rows
    /// about to be removed.
    /// - Throws: `DatabaseError`, `CancellationError`.
    func reportRows(_ db: Database, of file: GTFSFile, feed: Int64, as kind: RowChange.Kind, isCancelled: () -> Bool) throws {
        let columns = Self.keyColumns(of: file)
        let rows = try RawStatement(
            db, sql: "SELECT \(columns.joined(separator: ", ")) FROM main.\(file.rawValue) WHERE feed = \(feed)", cached: false)
        defer { rows.reset() }
        var count = 0
        while try rows.step() {
            count &+= 1
            if count & 4095 == 0, isCancelled() { throw CancellationError() }
            let key = columns.indices.map { RowChange.Field(column: columns[$0], value: rows.value(Int32($0))) }
            send(RowChange(kind: kind, file: file, feed: feedName, key: key))
        }
    }

    /// Reports a row a diff changes: `row` holds the table's `columns` in order from column `rowOffset` on
    /// (its key columns at `keyPositions`, counted from the statement's first column); for an update, `old`
    /// holds the stored row from column `oldOffset` on.
    func report(
        _ kind: RowChange.Kind, of file: GTFSFile, columns: [String], keyPositions: [Int32], row: RawStatement, rowOffset: Int32 = 0,
        old: RawStatement? = nil, oldOffset: Int32 = 0
    ) {
        let key = keyPositions.map { RowChange.Field(column: columns[Int($0 - rowOffset)], value: row.value($0)) }
        var updates: [RowChange.Update] = []
        if let old {
            for (index, column) in columns.enumerated() {
                let position = Int32(index)
                guard !MergeWalk.sameValue(old, oldOffset + position, row, rowOffset + position) else { continue }
                updates.append(RowChange.Update(column: column, old: old.value(oldOffset + position), new: row.value(rowOffset + position)))
            }
        }
        send(RowChange(kind: kind, file: file, feed: feedName, key: key, updates: updates))
    }
}
