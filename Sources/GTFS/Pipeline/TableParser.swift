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
    @inlinable
    @discardableResult
    public static func parse<R: GTFSRecord>(
        _ type: R.Type,
        from reader: Reader,
        fileName: String,
        options: ParseOptions = ParseOptions(),
        shouldContinue: () -> Bool = { true },
        deliver: ([R]) throws -> Void
    ) throws -> TableSummary {
        try parse(type, from: reader, fileName: fileName, options: options, numbersLines: false, shouldContinue: shouldContinue) {
            records, _, _ in try deliver(records)
        }
    }

    /// Reads every record of a file and hands over, with each batch, the line where each record starts
    /// (so that a later stage, such as a database refusing a duplicate key, can name the line).
    ///
    /// - Parameters:
    ///   - type: the record type, which names the columns.
    ///   - reader: the file's lines.
    ///   - fileName: the name used in errors.
    ///   - options: strictness and batch size.
    ///   - shouldContinue: polled between batches and every few thousand lines; return `false` to stop.
    ///   - deliver: receives each batch of records and, index for index, their 1-based first lines.
    /// - Returns: counts, rejected rows and warnings.
    /// - Throws: as ``parse(_:from:fileName:options:shouldContinue:deliver:)``.
    @inlinable
    @discardableResult
    public static func parseNumbered<R: GTFSRecord>(
        _ type: R.Type,
        from reader: Reader,
        fileName: String,
        options: ParseOptions = ParseOptions(),
        shouldContinue: () -> Bool = { true },
        deliver: ([R], [Int]) throws -> Void
    ) throws -> TableSummary {
        try parse(type, from: reader, fileName: fileName, options: options, numbersLines: true, shouldContinue: shouldContinue) {
            records, lines, _ in try deliver(records, lines)
        }
    }

    /// The one loop behind the entry points; `numbersLines` is a constant at each inlined call. `deliver`
    /// also receives, for each field of `R`, whether the file's header named it.
    @inlinable
    static func parse<R: GTFSRecord>(
        _ type: R.Type,
        from reader: Reader,
        fileName: String,
        options: ParseOptions,
        numbersLines: Bool,
        shouldContinue: () -> Bool,
        deliver: ([R], [Int], [Bool]) throws -> Void
    ) throws -> TableSummary {
        try options.validate()
        let core = TableParseCore(fileName: fileName, file: R.file, columns: R.Field.allCases.map(\.spec), options: options)
        var batch: [R] = []
        var lines: [Int] = []
        batch.reserveCapacity(options.batchSize)
        if numbersLines { lines.reserveCapacity(options.batchSize) }
        try readLines(of: reader, fileName: fileName) { line, stop in
            if line.number & 4095 == 0 && !shouldContinue() {
                stop = true
                return
            }
            if line.overlongLength > 0 {
                try core.rejectOverlong(line: line.number, length: line.overlongLength, limit: reader.options.maxLineLength)
                return
            }
            try core.consume(line.bytes, number: line.number) { cells in
                batch.append(try R(row: CSVRow<R.Field>(cells)))
                if numbersLines { lines.append(cells.line) }
            }
            if batch.count >= options.batchSize {
                guard shouldContinue() else {
                    stop = true
                    return
                }
                try deliver(batch, lines, core.columnsInHeader)
                batch.removeAll(keepingCapacity: true)
                lines.removeAll(keepingCapacity: true)
            }
        }
        if !shouldContinue() { throw CancellationError() }
        try core.finish(lineCount: reader.lineCount)
        if !batch.isEmpty { try deliver(batch, lines, core.columnsInHeader) }
        return core.finalSummary(bytesRead: reader.bytesRead)
    }

    /// Runs the reader, turning its errors into ``GTFSError``s that name the file.
    @usableFromInline
    static func readLines(of reader: Reader, fileName: String, _ body: (Line, inout Bool) throws -> Void) throws {
        do {
            try reader.forEachLine(body)
        } catch let error as ReaderError {
            throw GTFSError.unreadable(fileName, error)
        }
    }
}
