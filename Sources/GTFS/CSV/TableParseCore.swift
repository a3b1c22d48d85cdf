/// The per-file state of ``TableParser``: header, encoding mode, the open record, the counts.
///
/// It is not generic: the record type only enters through the `decode` closure, so this hot path is
/// compiled once, specialised, whatever the record type.
@usableFromInline
final class TableParseCore {
    private enum Encoding {
        case utf8
        case windows1252
    }

    private let options: ParseOptions
    private let parser = CSVRowParser()
    private let context: TableContext
    private let columns: [FieldSpec]
    @exclusivity(unchecked) private var headerCount = -1
    @exclusivity(unchecked) private var encoding = Encoding.utf8
    private var sawStrayCarriageReturn = false
    private var scratch: [UInt8] = []
    /// The line where the record being assembled (possibly over several lines) starts.
    @exclusivity(unchecked) private var recordStart = 0
    /// The bytes of the record being assembled, over all its lines.
    @exclusivity(unchecked) private var recordLength = 0
    /// The smaller of the two field limits.
    private let shortestLimit: Int
    @exclusivity(unchecked) private var summary: TableSummary
    /// For each column of the record type, whether the header named it (empty until the header is read).
    @usableFromInline private(set) var columnsInHeader: [Bool] = []

    @usableFromInline
    init(fileName: String, file: GTFSFile, columns: [FieldSpec], options: ParseOptions) {
        self.options = options
        self.columns = columns
        context = TableContext(fileName: fileName, columns: columns, options: options)
        shortestLimit = min(options.maxIDLength, options.maxTextLength)
        parser.maxRecordLength = options.maxLineLength
        // The table is the record type's, whatever the file is called (`--table stop_times` on `big.csv`).
        summary = TableSummary(fileName: fileName, file: file)
    }

    /// Takes one line of the file; calls `decode` for every complete data record.
    ///
    /// `decode` appends the record and returns normally, or throws the record's ``GTFSError``.
    @usableFromInline
    func consume(_ lineBytes: UnsafeRawBufferPointer, number: Int, decode: (RowCells) throws -> Void) throws {
        var bytes = lineBytes
        if bytes.last == 0x0D {
            // CR CR LF line ends (a CRLF file converted once more) leave a carriage return that would end
            // the last value, or follow a closing quote: it is dropped, with one warning per file.
            bytes = UnsafeRawBufferPointer(rebasing: bytes.dropLast())
            if !sawStrayCarriageReturn { warnStrayCarriageReturn(line: number) }
        }
        let continuing = parser.isContinuing
        if !continuing {
            // Blank lines between records are skipped.
            if bytes.isEmpty { return }
            recordStart = number
            recordLength = 0
        }
        // A line of an open quoted field adds its line break to the value.
        recordLength &+= continuing ? bytes.count &+ 1 : bytes.count
        let scan = parser.scan(bytes)
        if scan.hasNUL {
            parser.reset()
            try reject(GTFSError(.encoding, file: context.fileName, line: recordStart, message: "contains a NUL byte"))
            return
        }
        let outcome: CSVRowParser.Outcome
        if scan.hasHighBytes && (encoding == .windows1252 || !TextDecoding.isValidUTF8(bytes)) {
            try switchToWindows1252(line: number)
            scratch.removeAll(keepingCapacity: true)
            TextDecoding.appendWindows1252(bytes, to: &scratch)
            // Decoding may triple the bytes: the length checks count what the fields will hold.
            recordLength &+= scratch.count &- bytes.count
            // The quoted path copies the fields into the parser's own buffer, so nothing points into `scratch`.
            outcome = scratch.withUnsafeBytes { parser.parseQuoted($0) }
        } else if scan.isSplit {
            outcome = .record
        } else {
            outcome = parser.parseQuoted(bytes)
        }
        switch outcome {
        case .needsMoreInput:
            return
        case .malformed(let message):
            if headerCount < 0 { throw GTFSError(.malformedCSV, file: context.fileName, line: recordStart, message: "header: " + message) }
            try reject(GTFSError(.malformedCSV, file: context.fileName, line: recordStart, message: message))
        case .record:
            if headerCount < 0 {
                try readHeader()
            } else {
                try decodeRecord(decode)
            }
        }
    }

    /// Takes a line the reader skipped because it is longer than its limit (see
    /// `Reader.Options.skipsOverlongLines`): the record it belongs to is rejected; an overlong header ends the file.
    @usableFromInline
    func rejectOverlong(line: Int, length: Int, limit: Int) throws {
        if !parser.isContinuing { recordStart = line }
        parser.reset()
        let problem = GTFSError(
            .invalidValue, file: context.fileName, line: recordStart,
            message: "\(Count.grouped(length)) bytes in line \(line), longer than the limit of \(Count.grouped(limit))")
        if headerCount < 0 { throw problem }
        try reject(problem)
    }

    /// Ends the file: an open quoted record is an error; an empty file is reported.
    @usableFromInline
    func finish(lineCount: Int) throws {
        if let outcome = parser.endOfInput(), case .malformed(let message) = outcome {
            if headerCount < 0 { throw GTFSError(.malformedCSV, file: context.fileName, line: recordStart, message: "header: " + message) }
            try reject(GTFSError(.malformedCSV, file: context.fileName, line: recordStart, message: message))
        }
        if headerCount < 0 {
            let problem = GTFSError(.emptyFile, file: context.fileName, message: lineCount == 0 ? "is empty (0 bytes)" : "has no header")
            if options.strict { throw problem }
            context.warn(problem)
        }
        summary.warnings = context.warnings
        summary.warningCount = context.warningCount
    }

    /// The summary, once ``finish(lineCount:)`` has run.
    @usableFromInline
    func finalSummary(bytesRead: Int64) -> TableSummary {
        var result = summary
        result.bytesRead = bytesRead
        return result
    }

    // MARK: - Header

    private func readHeader() throws {
        var names: [String] = []
        var positions: [String: Int] = [:]
        for index in 0 ..< parser.fieldCount {
            let name = String(decoding: parser.field(index), as: UTF8.self)
            if let earlier = positions[name], !name.isEmpty {
                throw GTFSError(
                    .duplicateColumn, file: context.fileName, line: recordStart, column: name,
                    message: "appears twice in the header (columns \(earlier + 1) and \(index + 1))")
            }
            positions[name] = index
            names.append(name)
        }
        columnsInHeader = columns.map { positions[$0.name] != nil }
        for (column, spec) in columns.enumerated() {
            if let position = positions[spec.name] {
                context.setFieldIndex(position, ofColumn: column)
            } else if spec.isRequiredColumn {
                // A name that differs only by case, spaces or control characters is the likely culprit: show it.
                let near = names.first { Self.looseName($0) == spec.name && $0 != spec.name }
                throw GTFSError(
                    .missingColumn, file: context.fileName, line: recordStart, column: spec.name,
                    message: "required column is missing from the header"
                        + (near.map { " (the header has \"\(GTFSError.displayable($0))\")" } ?? ""))
            }
        }
        let known = Set(columns.map(\.name))
        for name in names where !known.contains(name) {
            context.warn(
                GTFSError(
                    .invalidValue, file: context.fileName, line: recordStart, column: name.isEmpty ? "(unnamed)" : name,
                    message: "unknown column, ignored"))
        }
        headerCount = names.count
    }

    /// A column name without surrounding spaces and control characters, lowercased.
    private static func looseName(_ name: String) -> String {
        let scalars = Array(name.unicodeScalars)
        func loose(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.isWhitespace || scalar.value < 0x20 || scalar.value == 0x7F }
        guard let first = scalars.firstIndex(where: { !loose($0) }), let last = scalars.lastIndex(where: { !loose($0) }) else { return "" }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: scalars[first ... last])
        return String(kept).lowercased()
    }

    // MARK: - Records

    @inline(__always)
    private func decodeRecord(_ decode: (RowCells) throws -> Void) throws {
        let cells = parser.fieldCount
        if cells != headerCount {
            let message =
                cells < headerCount
                ? "has \(cells) cells but the header has \(headerCount)" + (options.strict ? "" : "; the missing cells read as empty")
                : "has \(cells) cells but the header has \(headerCount)" + (options.strict ? "" : "; the extra cells are ignored")
            let problem = GTFSError(.cellCount, file: context.fileName, line: recordStart, message: message)
            if options.strict {
                try reject(problem)
                return
            }
            context.warn(problem)
        }
        // A field can only be over its limit in a record longer than the smaller limit: GTFS rows, far
        // shorter, skip the field-by-field check.
        if recordLength > shortestLimit, let problem = oversizedField() {
            try reject(problem)
            return
        }
        do {
            try decode(RowCells(line: recordStart, parser: parser, table: context))
            summary.rowsRead += 1
            summary.rowsParsed += 1
        } catch let error as GTFSError {
            try reject(error)
        }
    }

    /// The first field of the current record longer than its limit: ``ParseOptions/maxIDLength`` for an
    /// identifier, ``ParseOptions/maxTextLength`` for any other value. Columns the record type does not
    /// read are not stored, so their length does not matter.
    private func oversizedField() -> GTFSError? {
        for (column, spec) in columns.enumerated() {
            let position = context.fieldIndex(ofColumn: column)
            guard position >= 0, position < parser.fieldCount else { continue }
            let length = parser.field(position).count
            let limit = spec.type == .id ? options.maxIDLength : options.maxTextLength
            if length > limit {
                return GTFSError(
                    .invalidValue, file: context.fileName, line: recordStart, column: spec.name,
                    message: "\(Count.grouped(length)) bytes, longer than the limit of \(Count.grouped(limit))")
            }
        }
        return nil
    }

    /// Rejects the current record: strict mode throws, lenient mode records the error.
    private func reject(_ error: GTFSError) throws {
        summary.rowsRead += 1
        if options.strict { throw error }
        summary.rowsRejected += 1
        if summary.errors.count < options.maxStoredErrors { summary.errors.append(error) }
    }

    private func warnStrayCarriageReturn(line: Int) {
        sawStrayCarriageReturn = true
        context.warn(
            GTFSError(
                .encoding, file: context.fileName, line: line,
                message: "ends with a carriage return before its line end (CR CR LF?); it is dropped here and on later lines"))
    }

    private func switchToWindows1252(line: Int) throws {
        guard encoding == .utf8 else { return }
        if options.strict {
            throw GTFSError(.encoding, file: context.fileName, line: line, message: "is not valid UTF-8 (strict mode reads UTF-8 only)")
        }
        context.warn(
            GTFSError(
                .encoding, file: context.fileName, line: line,
                message: "is not valid UTF-8; the file is read as Windows-1252 from here on"))
        encoding = .windows1252
    }
}
