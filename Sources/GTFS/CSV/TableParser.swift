public import LineReader

/// Parses one CSV file of a feed into typed records, in batches: header mapping, encodings, blank
/// lines, multi-line quoted records, cell counts, and lenient or strict handling of bad rows.
///
/// ```swift
/// let reader = try Reader(path: "stops.txt")
/// let summary = try TableParser.parse(Stop.self, from: reader, fileName: "stops.txt") { stops in
///     print(stops.count)
/// }
/// ```
public enum TableParser {
    /// Reads every record of a file.
    ///
    /// - Parameters:
    ///   - type: the record type, which names the columns.
    ///   - reader: the file's lines.
    ///   - fileName: the name used in errors.
    ///   - options: strictness and batch size.
    ///   - shouldContinue: polled between batches and every few thousand lines; return `false` to stop
    ///     (the parse then throws `CancellationError`).
    ///   - deliver: receives each batch of records, in file order.
    /// - Returns: counts, rejected rows and warnings.
    /// - Throws: ``GTFSError`` for a file-level problem (duplicate or missing required column, unreadable
    ///   input) or, in strict mode, the first bad row; `CancellationError`; or what `deliver` throws.
    @discardableResult
    public static func parse<R: GTFSRecord>(
        _ type: R.Type,
        from reader: Reader,
        fileName: String,
        options: ParseOptions = ParseOptions(),
        shouldContinue: () -> Bool = { true },
        deliver: ([R]) throws -> Void
    ) throws -> TableSummary {
        let state = TableParseState<R>(fileName: fileName, options: options)
        do {
            try reader.forEachLine { line, stop in
                if line.number & 4095 == 0 && !shouldContinue() {
                    stop = true
                    state.cancelled = true
                    return
                }
                try state.consume(line.bytes, number: line.number, deliver: deliver)
                if state.batchReady {
                    guard shouldContinue() else {
                        stop = true
                        state.cancelled = true
                        return
                    }
                    try state.flush(deliver)
                }
            }
        } catch let error as ReaderError {
            throw GTFSError(.unreadable, file: fileName, message: error.description)
        }
        if state.cancelled { throw CancellationError() }
        try state.finish(lineCount: reader.lineCount, deliver: deliver)
        var summary = state.summary
        summary.bytesRead = reader.bytesRead
        return summary
    }
}
