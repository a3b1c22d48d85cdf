public import GRDB
public import GTFS

extension RecordBatch {
    /// Inserts the batch's records into their table with a ``TableInserter`` specialised for their type.
    ///
    /// ```swift
    /// try store.pool.write { db in
    ///     try FeedParser(source: try FeedSource(path: "feed.zip")).parse { batch in
    ///         try batch.insert(into: db)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - db: a connection on its writer queue.
    ///   - feed: the feed the rows belong to (its number in `feeds`); 1 when omitted.
    ///   - table: the table written to, when not the batch's own (a staging copy).
    ///   - rowsPerStatement: rows per multi-row INSERT.
    ///   - onConstraintViolation: receives the index in the batch of each record SQLite refuses (a
    ///     duplicate key, say) and the error; when `nil`, the first refusal is thrown.
    /// - Returns: the number of rows inserted.
    /// - Throws: `DatabaseError`, or what the handler throws.
    @discardableResult
    public func insert(
        into db: Database,
        feed: Int64 = 1,
        table: String? = nil,
        rowsPerStatement: Int = TableInserter<Stop>.defaultRowsPerStatement,
        onConstraintViolation: ((Int, DatabaseError) throws -> Void)? = nil
    ) throws -> Int {
        try file.acceptInsertable(
            BatchInsertion(
                batch: self, db: db, feed: feed, table: table, rowsPerStatement: rowsPerStatement, onConstraintViolation: onConstraintViolation))
    }
}

/// Inserts one batch with its concrete record type.
private struct BatchInsertion: SQLiteInsertableVisitor {
    let batch: RecordBatch
    let db: Database
    let feed: Int64
    let table: String?
    let rowsPerStatement: Int
    let onConstraintViolation: ((Int, DatabaseError) throws -> Void)?

    func visit<R: SQLiteInsertable>(_ type: R.Type) throws -> Int {
        guard let records = batch.records(as: R.self) else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "a batch of \(batch.fileName) does not hold \(R.self) records")
        }
        let inserter = TableInserter<R>(rowsPerStatement: rowsPerStatement, feed: feed, table: table)
        guard let onConstraintViolation else { return try inserter.insert(records, into: db) }
        return try inserter.insert(records, into: db) { index, _, error in try onConstraintViolation(index, error) }
    }
}
