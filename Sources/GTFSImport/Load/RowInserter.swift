import GRDB
import GTFS

/// Inserts batches for a table loader and handles the rows the store refuses: their key repeats a stored
/// row's, the only constraint a decoded record can break. In strict mode the first stops the import; in
/// lenient mode each is rejected, with an error naming its line, its key and the line the key first appeared
/// on (see ``DuplicateKeys``) for the first ones the summary keeps.
struct RowInserter {
    /// The feed's number in `feeds`.
    let feed: Int64
    let strict: Bool
    let maxStoredErrors: Int
    /// Finds a refused key's first line when the batch does not hold it.
    let earlierLines: EarlierLines

    /// Ends an insert at its first refusal in strict mode.
    private struct StrictRefusal: Error {}

    /// Inserts `batch` into its table, or into `table` (a staging copy), and counts it in `writer`.
    /// - Returns: the indexes in the batch of the refused rows.
    /// - Throws: `DatabaseError`, `CancellationError`, or the first refusal in strict mode.
    func insert(_ batch: RecordBatch, into table: String? = nil, _ db: Database, _ writer: inout WriterState) throws -> [Int] {
        var indexes: [Int] = []
        let strict = self.strict
        let stored: Int
        do {
            stored = try batch.insert(into: db, feed: feed, table: table) { index, _ in
                indexes.append(index)
                if strict { throw StrictRefusal() }
            }
        } catch is StrictRefusal {
            throw try strictError(batch, refused: indexes)
        }
        // Errors are made only for the refusals the summary keeps: a feed may repeat one row millions of times.
        let room = writer.errorRoom(in: batch.fileName, maxErrors: maxStoredErrors)
        let errors =
            room > 0 && !indexes.isEmpty
            ? refusals(of: batch, kept: Array(indexes.prefix(room)), refused: indexes, key: DuplicateKeys.Key(batch.file)) : []
        writer.stored(stored, refused: indexes.count, errors: errors, of: batch)
        return indexes
    }

    /// The errors of the `kept` refused rows of `batch`, each with the line its key first appeared on when
    /// the batch holds that row, and otherwise with what finds it later.
    private func refusals(of batch: RecordBatch, kept: [Int], refused: [Int], key: DuplicateKeys.Key) -> [RefusalError] {
        guard !key.fields.isEmpty else {
            // A table without unique fields refuses no row; should one be refused, its error names no key.
            return kept.map {
                RefusalError(
                    error: DuplicateKeys.error(fileName: batch.fileName, line: batch.line(at: $0), key: key, values: nil, earlierLine: nil),
                    unresolved: nil)
            }
        }
        return batch.accept(DuplicateKeys.BatchKeys(indexes: kept, refused: Set(refused), fields: key.fields)).map { found in
            let line = batch.line(at: found.index)
            let earlier = found.earlier.flatMap { batch.line(at: $0) }
            let error = DuplicateKeys.error(fileName: batch.fileName, line: line, key: key, values: found.values, earlierLine: earlier)
            guard earlier == nil, let line else { return RefusalError(error: error, unresolved: nil) }
            return RefusalError(error: error, unresolved: UnresolvedKey(values: found.values, line: line))
        }
    }

    /// Strict mode's error for the first refused row of `batch` (the last of `refused`), reading the file
    /// again at once when the batch does not hold the row the key first appeared on.
    private func strictError(_ batch: RecordBatch, refused: [Int]) throws -> GTFSError {
        let key = DuplicateKeys.Key(batch.file)
        let index = refused.last ?? 0
        guard let refusal = refusals(of: batch, kept: [index], refused: refused, key: key).first else {
            return DuplicateKeys.error(fileName: batch.fileName, line: batch.line(at: index), key: key, values: nil, earlierLine: nil)
        }
        guard let unresolved = refusal.unresolved else { return refusal.error }
        let lines = try earlierLines.find([unresolved.values], fields: key.fields, in: batch.fileName, before: unresolved.line)
        guard let earlier = lines[unresolved.values] else { return refusal.error }
        return DuplicateKeys.error(refusal.error, earlierLine: earlier)
    }
}
