import LineReader

/// Where some keys first appear in a file, as ``FeedEntry/firstLines(of:fields:before:options:shouldContinue:)``
/// found them.
package struct KeyLines: Sendable {
    /// The 1-based line where each key found first appears; a key not found before the limit is absent.
    package var lines: [KeyValues: Int] = [:]
    /// The lines read when the scan stopped.
    package var linesRead = 0
}

extension FeedEntry {
    /// Reads the file again, parsing it as `options` do, to find the line where each of `keys` first
    /// appears: what a store that refuses a repeated key cannot say once the batch holding the first row
    /// is gone. The scan stops as soon as every key is found or it reaches `lastLine`, so a file of one
    /// repeated row is read only up to its first repeat.
    ///
    /// Call it only for a file that is ``isRereadable``: standard input cannot be read a second time.
    ///
    /// - Parameters:
    ///   - keys: the values wanted.
    ///   - fields: the positions of the fields holding them (``GTFSField`` raw values), as in ``KeyValues``.
    ///   - lastLine: the line at which the scan ends; only earlier lines are searched.
    ///   - options: the options the file was parsed with (a row the parse rejected holds no key).
    ///   - shouldContinue: polled between batches and every few thousand lines; `false` stops the scan
    ///     with `CancellationError`.
    /// - Returns: the lines found, and how far the scan read.
    /// - Throws: ``GTFSError`` when the file cannot be read or its header no longer fits its table;
    ///   `CancellationError`.
    package func firstLines(
        of keys: Set<KeyValues>, fields: [Int], before lastLine: Int, options: ParseOptions,
        shouldContinue: @escaping () -> Bool
    ) throws -> KeyLines {
        guard let table, !keys.isEmpty else { return KeyLines() }
        var scanOptions = options
        scanOptions.strict = false
        scanOptions.hashesContent = false
        // Small batches stop the scan soon after its last key; errors and warnings were reported by the import.
        scanOptions.batchSize = min(options.batchSize, 128)
        scanOptions.maxStoredErrors = 0
        scanOptions.maxStoredWarnings = 0
        let (reader, _) = try makeReader(chunkSize: options.chunkSize, maxLineLength: options.maxLineLength)
        let lines = try table.accept(
            KeyLineVisitor(
                reader: reader, fileName: fileName, keys: keys, fields: fields, lastLine: lastLine, options: scanOptions,
                shouldContinue: shouldContinue))
        return KeyLines(lines: lines, linesRead: reader.lineCount)
    }
}

/// Scans one file with its concrete record type.
private struct KeyLineVisitor: RecordTypeVisitor {
    let reader: Reader
    let fileName: String
    let keys: Set<KeyValues>
    let fields: [Int]
    let lastLine: Int
    let options: ParseOptions
    let shouldContinue: () -> Bool

    /// Ends the scan early; not an error.
    private struct Done: Error {}

    func visit<R: GTFSRecord>(_ type: R.Type) throws -> [KeyValues: Int] {
        var found: [KeyValues: Int] = [:]
        do {
            try TableParser.parseNumbered(R.self, from: reader, fileName: fileName, options: options, shouldContinue: shouldContinue) {
                records, lines in
                for (record, line) in zip(records, lines) {
                    guard line < lastLine else { throw Done() }
                    let key = KeyValues(of: record, fields: fields)
                    if keys.contains(key), found[key] == nil {
                        found[key] = line
                        if found.count == keys.count { throw Done() }
                    }
                }
            }
        } catch is Done {}
        return found
    }
}
