import LineReader

/// Reads every file of a feed with the streaming `Reader` and delivers typed records in
/// batches.
///
/// Three ways to run it, one core:
/// - ``parse(shouldContinue:progress:consume:)`` on the calling thread;
/// - ``start(deliveringOn:maxBatchesInFlight:progress:consume:completion:)``: parsing on a private
///   serial queue, batches handed to the consumer's queue with at most `maxBatchesInFlight` waiting,
///   so memory stays flat when the consumer is slower; cancellable through the returned handle;
/// - ``parse(maxBatchesInFlight:progress:consume:)`` with `async`/`await`, honouring task cancellation.
///
/// ```swift
/// let parser = FeedParser(source: try FeedSource(path: "vbb.zip"))
/// let summary = try parser.parse { batch in
///     if let stops = batch.records(as: Stop.self) { print(stops.count, "stops") }
/// }
/// ```
public struct FeedParser: Sendable {
    /// Where the feed comes from.
    public let source: FeedSource
    /// Strictness, batch and chunk sizes.
    public let options: ParseOptions

    /// Creates a parser.
    ///
    /// - Parameters:
    ///   - source: the feed.
    ///   - options: strictness, batch and chunk sizes.
    public init(source: FeedSource, options: ParseOptions = ParseOptions()) {
        self.source = source
        self.options = options
    }

    /// Parses the whole feed on the calling thread.
    ///
    /// - Parameters:
    ///   - shouldContinue: polled often; return `false` to cancel (the parse then throws `CancellationError`).
    ///   - progress: called after every batch and at the end of every file.
    ///   - consume: receives every batch, file by file in ``GTFSFile/loadOrder``.
    /// - Returns: the per-file summaries.
    /// - Throws: ``GTFSError`` for a file-level problem or, in strict mode, the first bad row;
    ///   `CancellationError`; or what `consume` throws.
    @discardableResult
    public func parse(
        shouldContinue: () -> Bool = { true },
        progress: (FeedProgress) -> Void = { _ in },
        consume: (RecordBatch) throws -> Void
    ) throws -> FeedSummary {
        try options.validate()
        let plan = Self.readingPlan(try source.entries(), only: options.tables)
        let sizes = plan.tables.map(\.entry.byteCount)
        let total: Int64? = sizes.contains(where: { $0 == nil }) ? nil : sizes.reduce(0) { $0 + ($1 ?? 0) }
        var summary = FeedSummary()
        summary.skippedFiles = plan.outside
        summary.warnings = plan.warnings
        var state = FeedProgress(fileName: "", bytesRead: 0, totalBytes: total, rowsByFile: [:])
        for (entry, table) in plan.tables {
            guard shouldContinue() else { throw CancellationError() }
            let (reader, rawBytesRead) = try entry.makeReader(chunkSize: options.chunkSize, maxLineLength: options.maxLineLength)
            let hasher = options.hashesContent ? ContentHasher() : nil
            if let hasher { reader.chunkObserver = { hasher.update($0) } }
            let before = state.bytesRead
            state.fileName = entry.fileName
            var tableSummary = try withoutActuallyEscaping(shouldContinue) { shouldContinue in
                try withoutActuallyEscaping({ (batch: RecordBatch) throws in
                    try consume(batch)
                    state.rowsByFile[entry.fileName, default: 0] += batch.count
                    state.bytesRead = before + rawBytesRead()
                    progress(state)
                }) { deliver in
                    try table.accept(
                        TableVisitor(
                            reader: reader, fileName: entry.fileName, options: options, shouldContinue: shouldContinue,
                            deliver: deliver))
                }
            }
            state.bytesRead = before + rawBytesRead()
            progress(state)
            tableSummary.contentHash = hasher?.finish()
            summary.tables.append(tableSummary)
        }
        summary.bytesRead = state.bytesRead
        return summary
    }

    /// Which entries are parsed (tables of the reference, each once, in order), which are outside the
    /// reference, and the warnings for tables given twice.
    private static func readingPlan(
        _ entries: [FeedEntry], only: Set<GTFSFile>?
    ) -> (tables: [(entry: FeedEntry, table: GTFSFile)], outside: [String], warnings: [GTFSWarning]) {
        var tables: [(entry: FeedEntry, table: GTFSFile)] = []
        var outside: [String] = []
        var warnings: [GTFSWarning] = []
        var seen = Set<GTFSFile>()
        for entry in entries {
            guard let table = entry.table else {
                outside.append(entry.fileName)
                continue
            }
            if let only, !only.contains(table) { continue }
            guard seen.insert(table).inserted else {
                warnings.append(GTFSError(.invalidValue, file: entry.fileName, message: "holds \(table.fileName) a second time; skipped"))
                continue
            }
            tables.append((entry, table))
        }
        return (tables, outside, warnings)
    }
}

/// Parses one table with its concrete record type (specialised per type through ``GTFSFile/accept(_:)``).
private struct TableVisitor: RecordTypeVisitor {
    let reader: Reader
    let fileName: String
    let options: ParseOptions
    let shouldContinue: () -> Bool
    let deliver: (RecordBatch) throws -> Void

    func visit<R: GTFSRecord>(_ type: R.Type) throws -> TableSummary {
        try TableParser.parse(type, from: reader, fileName: fileName, options: options, numbersLines: true, shouldContinue: shouldContinue) {
            records, lines, columnsInHeader in
            try deliver(RecordBatch(records, fileName: fileName, lines: lines, columnsInHeader: columnsInHeader))
        }
    }
}
