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
    @inline(__always)
    public func bytes(_ field: Field) -> UnsafeRawBufferPointer? {
        let position = table.fieldIndex(ofColumn: field.rawValue)
        guard position >= 0, position < parser.fieldCount else { return nil }
        let bytes = parser.field(position)
        return bytes.isEmpty ? nil : bytes
    }

    /// Whether the file has this field at all (even when this row's cell is empty).
    public func hasColumn(_ field: Field) -> Bool { table.fieldIndex(ofColumn: field.rawValue) >= 0 }

    // MARK: Errors

    /// An error about `field` in this row, quoting its text (the first ``GTFSError/quotedLength`` bytes of a longer one).
    public func error(_ field: Field, _ message: String, kind: GTFSError.Kind = .invalidValue) -> GTFSError {
        GTFSError(kind, file: table.fileName, line: line, column: table.columnName(field.rawValue), text: bytes(field).map(Self.quoted), message: message)
    }

    /// A value as an error quotes it: whole, or its first ``GTFSError/quotedLength`` bytes (whole characters) and `…`.
    static func quoted(_ bytes: UnsafeRawBufferPointer) -> String {
        guard bytes.count > GTFSError.quotedLength else { return String(decoding: bytes, as: UTF8.self) }
        var end = GTFSError.quotedLength
        // Back up to the start of a UTF-8 sequence, so the cut splits no character.
        while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<end]), as: UTF8.self) + "…"
    }

    /// An error for a broken rule between fields (a conditionally required value, say).
    public func ruleError(_ field: Field, _ message: String) -> GTFSError {
        error(field, message, kind: .rule)
    }

    /// Records a warning about `field`: the value is kept.
    public func warn(_ field: Field, _ message: String) {
        table.warn(error(field, message))
    }

    func missing(_ field: Field) -> GTFSError {
        GTFSError(.missingValue, file: table.fileName, line: line, column: table.columnName(field.rawValue), message: "is required")
    }

    // MARK: Text

    /// The cell as a String, `nil` when empty or absent.
    @inline(__always)
    public func text(_ field: Field) -> String? {
        bytes(field).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The cell as a String.
    /// - Throws: ``GTFSError`` (`missingValue`) when empty or absent.
    @inline(__always)
    public func requiredText(_ field: Field) throws -> String {
        guard let text = text(field) else { throw missing(field) }
        return text
    }

    /// The cell as an identifier (``GTFSID``, inline up to 23 bytes), `nil` when empty or absent.
    @inline(__always)
    public func id(_ field: Field) -> GTFSID? {
        bytes(field).map { GTFSID(paddedUTF8: $0) }
    }

    /// The cell as an identifier.
    /// - Throws: ``GTFSError`` (`missingValue`) when empty or absent.
    @inline(__always)
    public func requiredID(_ field: Field) throws -> GTFSID {
        guard let id = id(field) else { throw missing(field) }
        return id
    }

    // MARK: Integers

    /// An integer cell; `nil` when empty.
    /// - Throws: ``GTFSError`` when the text is not an integer.
    @inline(__always)
    public func int(_ field: Field) throws -> Int? {
        guard let bytes = bytes(field) else { return nil }
        guard let value = NumberParsing.integer(bytes) else { throw error(field, "is not an integer") }
        return value
    }

    /// An integer cell that must be present.
    /// - Throws: ``GTFSError`` when empty or not an integer.
    @inline(__always)
    public func requiredInt(_ field: Field) throws -> Int {
        guard let value = try int(field) else { throw missing(field) }
        return value
    }

    /// A non-negative integer cell (≥ 0); `nil` when empty.
    /// - Throws: ``GTFSError`` when not an integer or negative.
    @inline(__always)
    public func nonNegativeInt(_ field: Field) throws -> Int? {
        guard let value = try int(field) else { return nil }
        guard value >= 0 else { throw error(field, "is not a non-negative integer") }
        return value
    }

    /// A non-negative integer cell that must be present.
    /// - Throws: ``GTFSError`` when empty, not an integer or negative.
    @inline(__always)
    public func requiredNonNegativeInt(_ field: Field) throws -> Int {
        guard let value = try nonNegativeInt(field) else { throw missing(field) }
        return value
    }

    /// A positive integer cell (> 0); `nil` when empty.
    /// - Throws: ``GTFSError`` when not an integer or not positive.
    public func positiveInt(_ field: Field) throws -> Int? {
        guard let value = try int(field) else { return nil }
        guard value > 0 else { throw error(field, "is not a positive integer") }
        return value
    }

    /// A positive integer cell that must be present.
    /// - Throws: ``GTFSError`` when empty, not an integer or not positive.
    public func requiredPositiveInt(_ field: Field) throws -> Int {
        guard let value = try positiveInt(field) else { throw missing(field) }
        return value
    }

    // MARK: Decimals

    /// A decimal number cell; `nil` when empty.
    /// - Throws: ``GTFSError`` when the text is not a decimal number (`52,53` is not).
    @inline(__always)
    public func double(_ field: Field) throws -> Double? {
        guard let bytes = bytes(field) else { return nil }
        guard let value = NumberParsing.decimal(bytes) else { throw error(field, "is not a decimal number") }
        return value
    }

    /// A decimal number cell that must be present.
    /// - Throws: ``GTFSError`` when empty or not a decimal number.
    public func requiredDouble(_ field: Field) throws -> Double {
        guard let value = try double(field) else { throw missing(field) }
        return value
    }

    /// A non-negative decimal cell; `nil` when empty.
    /// - Throws: ``GTFSError`` when not a number or negative.
    public func nonNegativeDouble(_ field: Field) throws -> Double? {
        guard let value = try double(field) else { return nil }
        guard value >= 0 else { throw error(field, "is not a non-negative number") }
        return value
    }

    /// A positive decimal cell; `nil` when empty.
    /// - Throws: ``GTFSError`` when not a number or not positive.
    public func positiveDouble(_ field: Field) throws -> Double? {
        guard let value = try double(field) else { return nil }
        guard value > 0 else { throw error(field, "is not a positive number") }
        return value
    }

    /// A WGS84 latitude, −90…90; `nil` when empty.
    /// - Throws: ``GTFSError`` when not a number or out of range.
    public func latitude(_ field: Field) throws -> Double? {
        guard let value = try double(field) else { return nil }
        guard value >= -90 && value <= 90 else { throw error(field, "is not a latitude (-90 to 90)") }
        return value
    }

    /// A WGS84 longitude, −180…180; `nil` when empty.
    /// - Throws: ``GTFSError`` when not a number or out of range.
    public func longitude(_ field: Field) throws -> Double? {
        guard let value = try double(field) else { return nil }
        guard value >= -180 && value <= 180 else { throw error(field, "is not a longitude (-180 to 180)") }
        return value
    }

    /// A latitude that must be present.
    /// - Throws: ``GTFSError`` when empty, not a number or out of range.
    public func requiredLatitude(_ field: Field) throws -> Double {
        guard let value = try latitude(field) else { throw missing(field) }
        return value
    }

    /// A longitude that must be present.
    /// - Throws: ``GTFSError`` when empty, not a number or out of range.
    public func requiredLongitude(_ field: Field) throws -> Double {
        guard let value = try longitude(field) else { throw missing(field) }
        return value
    }

    // MARK: Time, date, color, money

    /// A service time (`H:MM:SS`, hours may pass 24); `nil` when empty.
    /// - Throws: ``GTFSError`` when not a time.
    @inline(__always)
    public func time(_ field: Field) throws -> GTFSTime? {
        guard let bytes = bytes(field) else { return nil }
        guard let value = GTFSTime(bytes: bytes) else { throw error(field, "is not a time (H:MM:SS)") }
        return value
    }

    /// A service time that must be present.
    /// - Throws: ``GTFSError`` when empty or not a time.
    public func requiredTime(_ field: Field) throws -> GTFSTime {
        guard let value = try time(field) else { throw missing(field) }
        return value
    }

    /// A local wall-clock time (`HH:MM:SS`, at most 24:00:00); `nil` when empty.
    /// - Throws: ``GTFSError`` when not a time or past 24:00:00.
    public func localTime(_ field: Field) throws -> GTFSTime? {
        guard let value = try time(field) else { return nil }
        guard value.seconds <= 86_400 else { throw error(field, "is later than 24:00:00") }
        return value
    }

    /// A date (`YYYYMMDD`, validated); `nil` when empty.
    /// - Throws: ``GTFSError`` when not a valid date.
    public func date(_ field: Field) throws -> GTFSDate? {
        guard let bytes = bytes(field) else { return nil }
        guard let value = GTFSDate(bytes: bytes) else { throw error(field, "is not a valid date (YYYYMMDD)") }
        return value
    }

    /// A date that must be present.
    /// - Throws: ``GTFSError`` when empty or not a valid date.
    public func requiredDate(_ field: Field) throws -> GTFSDate {
        guard let value = try date(field) else { throw missing(field) }
        return value
    }

    /// A color (six hex digits); `nil` when empty.
    /// - Throws: ``GTFSError`` when not six hex digits.
    public func color(_ field: Field) throws -> GTFSColor? {
        guard let bytes = bytes(field) else { return nil }
        guard let value = GTFSColor(bytes: bytes) else { throw error(field, "is not a color (six hex digits)") }
        return value
    }

    /// An exact decimal currency amount; `nil` when empty.
    /// - Throws: ``GTFSError`` when not a decimal amount.
    public func currencyAmount(_ field: Field) throws -> CurrencyAmount? {
        guard let bytes = bytes(field) else { return nil }
        guard let value = CurrencyAmount(bytes: bytes) else { throw error(field, "is not a currency amount") }
        return value
    }

    /// A currency amount that must be present.
    /// - Throws: ``GTFSError`` when empty or not a decimal amount.
    public func requiredCurrencyAmount(_ field: Field) throws -> CurrencyAmount {
        guard let value = try currencyAmount(field) else { throw missing(field) }
        return value
    }

    // MARK: Enumerations

    /// An enumeration cell; `nil` when empty. Unknown codes are kept as `unknown(code)`.
    /// - Throws: ``GTFSError`` when the text is not an integer.
    @inline(__always)
    public func enumeration<E: GTFSEnum>(_ field: Field, as type: E.Type = E.self) throws -> E? {
        guard let bytes = bytes(field) else { return nil }
        guard let code = NumberParsing.integer(bytes) else { throw error(field, "is not an integer code") }
        return E(code: code)
    }

    /// An enumeration cell that must be present.
    /// - Throws: ``GTFSError`` when empty or not an integer.
    public func requiredEnumeration<E: GTFSEnum>(_ field: Field, as type: E.Type = E.self) throws -> E {
        guard let value = try enumeration(field, as: type) else { throw missing(field) }
        return value
    }

    // MARK: Checked text (kept with a warning when malformed)

    /// A URL; a value that is not an absolute `http`/`https` URL is kept with a warning.
    public func url(_ field: Field) -> String? {
        guard let value = text(field) else { return nil }
        if !TextChecks.isURL(value) { warn(field, "is not an absolute http(s) URL") }
        return value
    }

    /// A URL that must be present (checked like ``url(_:)``).
    /// - Throws: ``GTFSError`` when empty.
    public func requiredURL(_ field: Field) throws -> String {
        guard let value = url(field) else { throw missing(field) }
        return value
    }

    /// An email address; a value without `local@domain` form is kept with a warning.
    public func email(_ field: Field) -> String? {
        guard let value = text(field) else { return nil }
        if !TextChecks.isEmail(value) { warn(field, "is not an email address") }
        return value
    }

    /// A phone number; a value without digits is kept with a warning.
    public func phoneNumber(_ field: Field) -> String? {
        guard let value = text(field) else { return nil }
        if !TextChecks.isPhoneNumber(value) { warn(field, "is not a phone number") }
        return value
    }

    /// An IANA time zone (`Europe/Berlin`); other forms are kept with a warning.
    public func timezone(_ field: Field) -> String? {
        guard let value = text(field) else { return nil }
        if !TextChecks.isTimezone(value) { warn(field, "is not an IANA time zone name") }
        return value
    }

    /// A time zone that must be present (checked like ``timezone(_:)``).
    /// - Throws: ``GTFSError`` when empty.
    public func requiredTimezone(_ field: Field) throws -> String {
        guard let value = timezone(field) else { throw missing(field) }
        return value
    }

    /// An IETF BCP 47 language code (`de`, `en-US`); other forms are kept with a warning.
    public func languageCode(_ field: Field) -> String? {
        guard let value = text(field) else { return nil }
        if !TextChecks.isLanguageCode(value) { warn(field, "is not a BCP 47 language code") }
        return value
    }

    /// A language code that must be present.
    /// - Throws: ``GTFSError`` when empty.
    public func requiredLanguageCode(_ field: Field) throws -> String {
        guard let value = languageCode(field) else { throw missing(field) }
        return value
    }

    /// An ISO 4217 currency code (`EUR`); other forms are an error.
    /// - Throws: ``GTFSError`` when not three ASCII letters.
    public func currencyCode(_ field: Field) throws -> String? {
        guard let value = text(field) else { return nil }
        guard TextChecks.isCurrencyCode(value) else { throw error(field, "is not an ISO 4217 currency code") }
        return value
    }

    /// A currency code that must be present.
    /// - Throws: ``GTFSError`` when empty or not three letters.
    public func requiredCurrencyCode(_ field: Field) throws -> String {
        guard let value = try currencyCode(field) else { throw missing(field) }
        return value
    }
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
