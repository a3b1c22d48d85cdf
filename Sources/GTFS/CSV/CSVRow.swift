/// One CSV row of a GTFS file, read by field with typed, checked accessors.
///
/// A row borrows the parser's buffers: use it only inside ``GTFSRecord/init(row:)``. Its fields are the
/// record type's ``GTFSRecord/Field`` cases, wherever their columns are in the file. An absent field and an
/// empty cell both read as `nil`.
///
/// ```swift
/// stopID = try row.requiredID(.stopID)
/// locationType = try row.enumeration(.locationType) ?? .stop
/// ```
public struct CSVRow<Field: GTFSField> {
    /// The 1-based line where the record starts.
    public let line: Int
    unowned(unsafe) let parser: CSVRowParser
    unowned(unsafe) let table: TableContext

    @usableFromInline
    init(_ cells: RowCells) {
        self.line = cells.line
        self.parser = cells.parser
        self.table = cells.table
    }

    /// The trimmed bytes of a field, `nil` when the field is absent or the cell empty.
    /// - Parameter field: the field.
    /// - Returns: the bytes, valid only inside ``GTFSRecord/init(row:)``; `nil` for an absent field or an empty cell.
    @inline(__always)
    public func bytes(_ field: Field) -> UnsafeRawBufferPointer? {
        let position = table.fieldIndex(ofColumn: field.rawValue)
        guard position >= 0, position < parser.fieldCount else { return nil }
        let bytes = parser.field(position)
        return bytes.isEmpty ? nil : bytes
    }

    /// Whether the file has this field at all (even when this row's cell is empty).
    /// - Parameter field: the field.
    /// - Returns: `true` when the header names the field's column.
    public func hasColumn(_ field: Field) -> Bool { table.fieldIndex(ofColumn: field.rawValue) >= 0 }

    // MARK: Errors

    /// An error about `field` in this row, quoting its text (the first ``GTFSError/quotedLength`` bytes of a longer one).
    /// - Parameters:
    ///   - field: the field.
    ///   - message: what is wrong, e.g. `is not a decimal number`.
    ///   - kind: the kind of problem; ``GTFSError/Kind/invalidValue`` by default.
    /// - Returns: the error, with the file, line and column of the cell.
    public func error(_ field: Field, _ message: String, kind: GTFSError.Kind = .invalidValue) -> GTFSError {
        GTFSError(kind, file: table.fileName, line: line, column: table.columnName(field.rawValue), text: bytes(field).map(GTFSError.excerpt), message: message)
    }

    /// An error for a broken rule between fields (a conditionally required value, say).
    /// - Parameters:
    ///   - field: the field.
    ///   - message: the rule that is broken, e.g. `is required for location_type 0`.
    /// - Returns: the error, of kind ``GTFSError/Kind/rule``.
    public func ruleError(_ field: Field, _ message: String) -> GTFSError {
        error(field, message, kind: .rule)
    }

    /// Records a warning about `field`: the value is kept.
    /// - Parameters:
    ///   - field: the field.
    ///   - message: what looks wrong, e.g. `is not an absolute http(s) URL`.
    public func warn(_ field: Field, _ message: String) {
        table.warn(error(field, message))
    }

    /// `value`, which a required field must have.
    /// - Throws: ``GTFSError`` (``missing(_:)``) when it is `nil`: the field is empty.
    @inline(__always)
    func present<Value>(_ field: Field, _ value: Value?) throws -> Value {
        guard let value else { throw missing(field) }
        return value
    }

    /// The error of a required field that is empty.
    func missing(_ field: Field) -> GTFSError {
        GTFSError(.missingValue, file: table.fileName, line: line, column: table.columnName(field.rawValue), message: "is required")
    }

    // MARK: Text

    /// The cell as a String, `nil` when empty or absent.
    /// - Parameter field: the field.
    /// - Returns: the text; `nil` for an absent field or an empty cell.
    @inline(__always)
    public func text(_ field: Field) -> String? {
        bytes(field).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The cell as a String.
    /// - Parameter field: the field.
    /// - Returns: the text.
    /// - Throws: ``GTFSError`` (`missingValue`) when empty or absent.
    @inline(__always)
    public func requiredText(_ field: Field) throws -> String { try present(field, text(field)) }

    /// The cell as an identifier (``GTFSID``, inline up to 23 bytes), `nil` when empty or absent.
    /// - Parameter field: the field.
    /// - Returns: the identifier; `nil` for an absent field or an empty cell.
    @inline(__always)
    public func id(_ field: Field) -> GTFSID? {
        bytes(field).map { GTFSID(paddedUTF8: $0) }
    }

    /// The cell as an identifier.
    /// - Parameter field: the field.
    /// - Returns: the identifier.
    /// - Throws: ``GTFSError`` (`missingValue`) when empty or absent.
    @inline(__always)
    public func requiredID(_ field: Field) throws -> GTFSID { try present(field, id(field)) }
}

@available(*, unavailable, message: "a CSVRow borrows the parser's buffers")
extension CSVRow: Sendable {}

/// Where the current record's cells are: what the (non-generic) parser hands to a record type's decoder.
@usableFromInline
struct RowCells {
    @usableFromInline let line: Int
    unowned(unsafe) let parser: CSVRowParser
    unowned(unsafe) let table: TableContext
}
