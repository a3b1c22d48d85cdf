import GRDB
import GTFS

extension RecordBatch {
    /// Inserts the batch's records into their table with a ``TableInserter`` specialised for their type.
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
    func insert(
        into db: Database,
        feed: Int64 = 1,
        table: String? = nil,
        rowsPerStatement: Int = TableInserter<Stop>.defaultRowsPerStatement,
        onConstraintViolation: ((Int, DatabaseError) throws -> Void)? = nil
    ) throws -> Int {
        try accept(
            BatchInsertion(
                db: db, feed: feed, table: table, rowsPerStatement: rowsPerStatement, onConstraintViolation: onConstraintViolation))
    }
}

/// Inserts one batch's records with their concrete type.
private struct BatchInsertion: RecordBatchVisitor {
    let db: Database
    let feed: Int64
    let table: String?
    let rowsPerStatement: Int
    let onConstraintViolation: ((Int, DatabaseError) throws -> Void)?

    func visit<R: GTFSRecord>(_ records: [R]) throws -> Int {
        let inserter = TableInserter<R>(rowsPerStatement: rowsPerStatement, feed: feed, table: table)
        guard let onConstraintViolation else { return try inserter.insert(records, into: db) }
        return try inserter.insert(records, into: db) { index, _, error in try onConstraintViolation(index, error) }
    }
}
