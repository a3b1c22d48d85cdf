import GTFS

/// The error of a row the store refused because its key repeats an earlier row's, and what finds that
/// earlier row's line: `stop_times.txt:1232: (trip_id, stop_sequence) = ("608433", 0) repeats line 1231; rejected`.
///
/// The earlier row's line is found in the refused row's batch when the batch holds it, and otherwise by
/// reading the file again once its rows are stored (``EarlierLines``): the store keeps no line numbers,
/// and rows without duplicates must not pay for any.
enum DuplicateKeys {
    /// The columns and values of a refused row's key, as its error names them.
    struct Key {
        /// The columns (`trip_id`, `stop_sequence`).
        let columns: [String]
        /// Their positions among the table's fields.
        let fields: [Int]

        /// The key of `file`'s table (see ``StoreTable/uniqueFields``).
        init(_ file: GTFSFile) {
            let table = StoreTable(file)
            fields = table.uniqueFields
            columns = fields.map { table.description.fields.indices.contains($0) ? table.description.fields[$0].name : "" }
        }
    }

    /// The error of a refused row.
    ///
    /// - Parameters:
    ///   - fileName: the file.
    ///   - line: the refused row's line, when known.
    ///   - key: the table's key.
    ///   - values: the row's values of it.
    ///   - earlierLine: the line the key first appeared on, when known.
    static func error(fileName: String, line: Int?, key: Key, values: KeyValues?, earlierLine: Int?) -> GTFSError {
        let named = !key.columns.isEmpty
        return GTFSError(
            .duplicateKey, file: fileName, line: line, column: named ? key.columns.joined(separator: ", ") : nil,
            text: named ? values?.text : nil, message: message(earlierLine: earlierLine))
    }

    /// `error` naming `earlierLine` as the line its key first appeared on.
    static func error(_ error: GTFSError, earlierLine: Int) -> GTFSError {
        GTFSError(
            error.kind, file: error.file, line: error.line, column: error.column, text: error.text, message: message(earlierLine: earlierLine))
    }

    private static func message(earlierLine: Int?) -> String {
        earlierLine.map { "repeats line \($0); rejected" } ?? "repeats an earlier row; rejected"
    }

    /// For each refused row of a batch, its key's values and the index of the batch's row that holds the key
    /// first, when the batch holds it: a stored row of the batch before it with the same key.
    struct BatchKeys: RecordBatchVisitor {
        /// The refused rows asked about, ascending.
        let indexes: [Int]
        /// Every refused row of the batch (none of them holds a key first).
        let refused: Set<Int>
        let fields: [Int]

        func visit<R: GTFSRecord>(_ records: [R]) throws(Never) -> [(index: Int, values: KeyValues, earlier: Int?)] {
            let asked = indexes.filter { records.indices.contains($0) }.map { (index: $0, values: KeyValues(of: records[$0], fields: fields)) }
            let wanted = Set(asked.map(\.values))
            var first: [KeyValues: Int] = [:]
            for index in 0 ..< (asked.last?.index ?? 0) where !refused.contains(index) {
                let key = KeyValues(of: records[index], fields: fields)
                guard wanted.contains(key), first[key] == nil else { continue }
                first[key] = index
                if first.count == wanted.count { break }
            }
            return asked.map { ($0.index, $0.values, first[$0.values].flatMap { [index = $0.index] earlier in earlier < index ? earlier : nil }) }
        }
    }
}

/// A kept refusal's error and, while it does not name the line its key first appeared on, what finds it.
struct RefusalError {
    let error: GTFSError
    let unresolved: UnresolvedKey?
}

/// A refused row whose key first appeared in an earlier batch, at a line still to be found.
struct UnresolvedKey: Sendable {
    /// The refused row's key.
    let values: KeyValues
    /// The refused row's line: the key first appeared before it.
    let line: Int
}

/// Finds the lines where refused keys first appeared by reading their file again (see
/// ``GTFS/FeedEntry/firstLines(of:fields:before:options:shouldContinue:)``), when the input can be read
/// again: a file, a directory's file or a zip entry, not standard input.
struct EarlierLines: Sendable {
    /// The input.
    let source: FeedSource
    /// The options the input was parsed with.
    let options: ParseOptions
    /// Polled while reading; `true` stops with `CancellationError`.
    let isCancelled: @Sendable () -> Bool

    /// The line where each of `keys` first appears in `fileName` before `line`; empty when the file cannot
    /// be read again (standard input, or a file that vanished or no longer parses).
    ///
    /// - Throws: `CancellationError`.
    func find(_ keys: Set<KeyValues>, fields: [Int], in fileName: String, before line: Int) throws -> [KeyValues: Int] {
        // The parser read the first entry of that name (a later one holding the same table is skipped).
        guard !keys.isEmpty, let entries = try? source.entries(), let entry = entries.first(where: { $0.fileName == fileName }),
            entry.isRereadable
        else { return [:] }
        let isCancelled = self.isCancelled
        do {
            return try entry.firstLines(of: keys, fields: fields, before: line, options: options) { !isCancelled() }.lines
        } catch is GTFSError {
            // The file changed or vanished since it was parsed: the errors keep saying "an earlier row".
            return [:]
        }
    }
}
