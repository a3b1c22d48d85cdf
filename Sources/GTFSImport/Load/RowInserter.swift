import GRDB
import GTFS

/// Inserts batches for a table loader and handles the rows the store refuses: their key repeats a stored
/// row's, the only constraint a decoded record can break. In strict mode the first stops the import; in
/// lenient mode each is rejected, with an error naming its line and key for the first ones the summary keeps.
struct RowInserter {
    /// The feed's number in `feeds`.
    let feed: Int64
    let strict: Bool
    let maxStoredErrors: Int

    /// Inserts `batch` into its table, or into `table` (a staging copy), and counts it in `writer`.
    /// - Returns: the indexes in the batch of the refused rows.
    /// - Throws: `DatabaseError`, or the first refusal in strict mode.
    func insert(_ batch: RecordBatch, into table: String? = nil, _ db: Database, _ writer: inout WriterState) throws -> [Int] {
        // Errors are made only for the refusals the summary keeps: a feed may repeat one row millions of times.
        let room = writer.errorRoom(in: batch.fileName, maxErrors: maxStoredErrors)
        let key = StoreTable(batch.file).keyColumns.joined(separator: ", ")
        var errors: [GTFSError] = []
        var indexes: [Int] = []
        let strict = self.strict
        let stored = try batch.insert(into: db, feed: feed, table: table) { index, _ in
            indexes.append(index)
            guard strict || errors.count < room else { return }
            let problem = GTFSError(
                .duplicateKey, file: batch.fileName, line: batch.line(at: index), column: key.isEmpty ? nil : key,
                message: "repeats the key of an earlier row; rejected")
            if strict { throw problem }
            errors.append(problem)
        }
        writer.stored(stored, refused: indexes.count, errors: errors, of: batch)
        return indexes
    }
}
