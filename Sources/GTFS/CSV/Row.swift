/// One CSV row of a GTFS file, read by column with typed, checked accessors.
///
/// A row borrows the parser's buffers: use it only inside ``GTFSRecord/init(row:)``.
/// Column arguments are indexes into the record type's ``GTFSRecord/columns`` (or an `Int`-backed enum
/// listing them). An absent column and an empty cell both read as `nil`.
public struct Row {
    /// The 1-based line where the record starts.
    public let line: Int
    unowned(unsafe) let parser: CSVRowParser
    unowned(unsafe) let table: TableContext

    init(line: Int, parser: CSVRowParser, table: TableContext) {
        self.line = line
        self.parser = parser
        self.table = table
    }

    /// The trimmed bytes of a column, `nil` when the column is absent or the cell empty.
    @inline(__always)
    public func bytes(_ column: Int) -> UnsafeRawBufferPointer? {
        let field = table.fieldIndex(ofColumn: column)
        guard field >= 0, field < parser.fieldCount else { return nil }
        let bytes = parser.field(field)
        return bytes.isEmpty ? nil : bytes
    }

    /// Whether the file has this column at all (even when this row's cell is empty).
    public func hasColumn(_ column: Int) -> Bool { table.fieldIndex(ofColumn: column) >= 0 }

    // MARK: Errors

    /// An error about `column` in this row, quoting its text (the first ``quotedLength`` bytes of a longer one).
    public func error(_ column: Int, _ message: String, kind: GTFSError.Kind = .invalidValue) -> GTFSError {
        GTFSError(kind, file: table.fileName, line: line, column: table.columnName(column), text: bytes(column).map(Self.quoted), message: message)
    }

    /// The most bytes of a value an error quotes: errors are kept by the thousand, values may be megabytes.
    public static let quotedLength = 200

    /// A value as an error quotes it: whole, or its first ``quotedLength`` bytes (whole characters) and `…`.
    static func quoted(_ bytes: UnsafeRawBufferPointer) -> String {
        guard bytes.count > quotedLength else { return String(decoding: bytes, as: UTF8.self) }
        var end = quotedLength
        // Back up to the start of a UTF-8 sequence, so the cut splits no character.
        while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<end]), as: UTF8.self) + "…"
    }

    /// An error for a broken rule between fields (a conditionally required value, say).
    public func ruleError(_ column: Int, _ message: String) -> GTFSError {
        error(column, message, kind: .rule)
    }

    /// Records a warning about `column`: the value is kept.
    public func warn(_ column: Int, _ message: String) {
        table.warn(error(column, message))
    }

    func missing(_ column: Int) -> GTFSError {
        GTFSError(.missingValue, file: table.fileName, line: line, column: table.columnName(column), message: "is required")
    }

    // MARK: Text

    /// The cell as a String, `nil` when empty or absent.
    ///
    /// A value longer than ``ParseOptions/maxTextLength`` rejects the row (it reads as empty text meanwhile).
    @inline(__always)
    public func text(_ column: Int) -> String? {
        guard let bytes = bytes(column) else { return nil }
        guard bytes.count <= table.maxTextLength else { return oversized(column, bytes.count, table.maxTextLength, "") }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The cell as a String.
    /// - Throws: ``GTFSError`` (`missingValue`) when empty or absent.
    @inline(__always)
    public func requiredText(_ column: Int) throws -> String {
        guard let text = text(column) else { throw missing(column) }
        return text
    }

    /// The cell as an identifier (``GTFSID``, inline up to 23 bytes), `nil` when empty or absent.
    ///
    /// A value longer than ``ParseOptions/maxIDLength`` rejects the row (it reads as an empty id meanwhile).
    @inline(__always)
    public func id(_ column: Int) -> GTFSID? {
        guard let bytes = bytes(column) else { return nil }
        guard bytes.count <= table.maxIDLength else { return oversized(column, bytes.count, table.maxIDLength, GTFSID("")) }
        return GTFSID(paddedUTF8: bytes)
    }

    /// The cell as an identifier.
    /// - Throws: ``GTFSError`` (`missingValue`) when empty or absent.
    @inline(__always)
    public func requiredID(_ column: Int) throws -> GTFSID {
        guard let id = id(column) else { throw missing(column) }
        return id
    }

    /// Notes a value over its limit, which rejects the row once it is decoded, and gives `placeholder`
    /// instead of copying the value.
    @inline(never)
    private func oversized<Value>(_ column: Int, _ length: Int, _ limit: Int, _ placeholder: Value) -> Value {
        table.noteOversized(column, line: line, length: length, limit: limit)
        return placeholder
    }

    /// Throws the first value of this row that is over its limit (the row is then rejected).
    @usableFromInline
    func checkLengths() throws {
        if let error = table.takeOversized() { throw error }
    }

    // MARK: Integers

    /// An integer cell; `nil` when empty.
    /// - Throws: ``GTFSError`` when the text is not an integer.
    @inline(__always)
    public func int(_ column: Int) throws -> Int? {
        guard let bytes = bytes(column) else { return nil }
        guard let value = NumberParsing.integer(bytes) else { throw error(column, "is not an integer") }
        return value
    }

    /// An integer cell that must be present.
    /// - Throws: ``GTFSError`` when empty or not an integer.
    @inline(__always)
    public func requiredInt(_ column: Int) throws -> Int {
        guard let value = try int(column) else { throw missing(column) }
        return value
    }

    /// A non-negative integer cell (≥ 0); `nil` when empty.
    /// - Throws: ``GTFSError`` when not an integer or negative.
    @inline(__always)
    public func nonNegativeInt(_ column: Int) throws -> Int? {
        guard let value = try int(column) else { return nil }
        guard value >= 0 else { throw error(column, "is not a non-negative integer") }
        return value
    }

    /// A non-negative integer cell that must be present.
    /// - Throws: ``GTFSError`` when empty, not an integer or negative.
    @inline(__always)
    public func requiredNonNegativeInt(_ column: Int) throws -> Int {
        guard let value = try nonNegativeInt(column) else { throw missing(column) }
        return value
    }

    /// A positive integer cell (> 0); `nil` when empty.
    /// - Throws: ``GTFSError`` when not an integer or not positive.
    public func positiveInt(_ column: Int) throws -> Int? {
        guard let value = try int(column) else { return nil }
        guard value > 0 else { throw error(column, "is not a positive integer") }
        return value
    }

    /// A positive integer cell that must be present.
    /// - Throws: ``GTFSError`` when empty, not an integer or not positive.
    public func requiredPositiveInt(_ column: Int) throws -> Int {
        guard let value = try positiveInt(column) else { throw missing(column) }
        return value
    }

    // MARK: Decimals

    /// A decimal number cell; `nil` when empty.
    /// - Throws: ``GTFSError`` when the text is not a decimal number (`52,53` is not).
    @inline(__always)
    public func double(_ column: Int) throws -> Double? {
        guard let bytes = bytes(column) else { return nil }
        guard let value = NumberParsing.decimal(bytes) else { throw error(column, "is not a decimal number") }
        return value
    }

    /// A decimal number cell that must be present.
    /// - Throws: ``GTFSError`` when empty or not a decimal number.
    public func requiredDouble(_ column: Int) throws -> Double {
        guard let value = try double(column) else { throw missing(column) }
        return value
    }

    /// A non-negative decimal cell; `nil` when empty.
    /// - Throws: ``GTFSError`` when not a number or negative.
    public func nonNegativeDouble(_ column: Int) throws -> Double? {
        guard let value = try double(column) else { return nil }
        guard value >= 0 else { throw error(column, "is not a non-negative number") }
        return value
    }

    /// A positive decimal cell; `nil` when empty.
    /// - Throws: ``GTFSError`` when not a number or not positive.
    public func positiveDouble(_ column: Int) throws -> Double? {
        guard let value = try double(column) else { return nil }
        guard value > 0 else { throw error(column, "is not a positive number") }
        return value
    }

    /// A WGS84 latitude, −90…90; `nil` when empty.
    /// - Throws: ``GTFSError`` when not a number or out of range.
    public func latitude(_ column: Int) throws -> Double? {
        guard let value = try double(column) else { return nil }
        guard value >= -90 && value <= 90 else { throw error(column, "is not a latitude (-90 to 90)") }
        return value
    }

    /// A WGS84 longitude, −180…180; `nil` when empty.
    /// - Throws: ``GTFSError`` when not a number or out of range.
    public func longitude(_ column: Int) throws -> Double? {
        guard let value = try double(column) else { return nil }
        guard value >= -180 && value <= 180 else { throw error(column, "is not a longitude (-180 to 180)") }
        return value
    }

    /// A latitude that must be present.
    /// - Throws: ``GTFSError`` when empty, not a number or out of range.
    public func requiredLatitude(_ column: Int) throws -> Double {
        guard let value = try latitude(column) else { throw missing(column) }
        return value
    }

    /// A longitude that must be present.
    /// - Throws: ``GTFSError`` when empty, not a number or out of range.
    public func requiredLongitude(_ column: Int) throws -> Double {
        guard let value = try longitude(column) else { throw missing(column) }
        return value
    }

    // MARK: Time, date, color, money

    /// A service time (`H:MM:SS`, hours may pass 24); `nil` when empty.
    /// - Throws: ``GTFSError`` when not a time.
    @inline(__always)
    public func time(_ column: Int) throws -> GTFSTime? {
        guard let bytes = bytes(column) else { return nil }
        guard let value = GTFSTime(bytes: bytes) else { throw error(column, "is not a time (H:MM:SS)") }
        return value
    }

    /// A service time that must be present.
    /// - Throws: ``GTFSError`` when empty or not a time.
    public func requiredTime(_ column: Int) throws -> GTFSTime {
        guard let value = try time(column) else { throw missing(column) }
        return value
    }

    /// A local wall-clock time (`HH:MM:SS`, at most 24:00:00); `nil` when empty.
    /// - Throws: ``GTFSError`` when not a time or past 24:00:00.
    public func localTime(_ column: Int) throws -> GTFSTime? {
        guard let value = try time(column) else { return nil }
        guard value.seconds <= 86_400 else { throw error(column, "is later than 24:00:00") }
        return value
    }

    /// A date (`YYYYMMDD`, validated); `nil` when empty.
    /// - Throws: ``GTFSError`` when not a valid date.
    public func date(_ column: Int) throws -> GTFSDate? {
        guard let bytes = bytes(column) else { return nil }
        guard let value = GTFSDate(bytes: bytes) else { throw error(column, "is not a valid date (YYYYMMDD)") }
        return value
    }

    /// A date that must be present.
    /// - Throws: ``GTFSError`` when empty or not a valid date.
    public func requiredDate(_ column: Int) throws -> GTFSDate {
        guard let value = try date(column) else { throw missing(column) }
        return value
    }

    /// A color (six hex digits); `nil` when empty.
    /// - Throws: ``GTFSError`` when not six hex digits.
    public func color(_ column: Int) throws -> GTFSColor? {
        guard let bytes = bytes(column) else { return nil }
        guard let value = GTFSColor(bytes: bytes) else { throw error(column, "is not a color (six hex digits)") }
        return value
    }

    /// An exact decimal currency amount; `nil` when empty.
    /// - Throws: ``GTFSError`` when not a decimal amount.
    public func currencyAmount(_ column: Int) throws -> CurrencyAmount? {
        guard let bytes = bytes(column) else { return nil }
        guard let value = CurrencyAmount(bytes: bytes) else { throw error(column, "is not a currency amount") }
        return value
    }

    /// A currency amount that must be present.
    /// - Throws: ``GTFSError`` when empty or not a decimal amount.
    public func requiredCurrencyAmount(_ column: Int) throws -> CurrencyAmount {
        guard let value = try currencyAmount(column) else { throw missing(column) }
        return value
    }

    // MARK: Enumerations

    /// An enumeration cell; `nil` when empty. Unknown codes are kept as `unknown(code)`.
    /// - Throws: ``GTFSError`` when the text is not an integer.
    @inline(__always)
    public func enumeration<E: GTFSEnum>(_ column: Int, as type: E.Type = E.self) throws -> E? {
        guard let bytes = bytes(column) else { return nil }
        guard let code = NumberParsing.integer(bytes) else { throw error(column, "is not an integer code") }
        return E(code: code)
    }

    /// An enumeration cell that must be present.
    /// - Throws: ``GTFSError`` when empty or not an integer.
    public func requiredEnumeration<E: GTFSEnum>(_ column: Int, as type: E.Type = E.self) throws -> E {
        guard let value = try enumeration(column, as: type) else { throw missing(column) }
        return value
    }

    // MARK: Checked text (kept with a warning when malformed)

    /// A URL; a value that is not an absolute `http`/`https` URL is kept with a warning.
    public func url(_ column: Int) -> String? {
        guard let value = text(column) else { return nil }
        if !TextChecks.isURL(value) { warn(column, "is not an absolute http(s) URL") }
        return value
    }

    /// A URL that must be present (checked like ``url(_:)``).
    /// - Throws: ``GTFSError`` when empty.
    public func requiredURL(_ column: Int) throws -> String {
        guard let value = url(column) else { throw missing(column) }
        return value
    }

    /// An email address; a value without `local@domain` form is kept with a warning.
    public func email(_ column: Int) -> String? {
        guard let value = text(column) else { return nil }
        if !TextChecks.isEmail(value) { warn(column, "is not an email address") }
        return value
    }

    /// A phone number; a value without digits is kept with a warning.
    public func phoneNumber(_ column: Int) -> String? {
        guard let value = text(column) else { return nil }
        if !TextChecks.isPhoneNumber(value) { warn(column, "is not a phone number") }
        return value
    }

    /// An IANA time zone (`Europe/Berlin`); other forms are kept with a warning.
    public func timezone(_ column: Int) -> String? {
        guard let value = text(column) else { return nil }
        if !TextChecks.isTimezone(value) { warn(column, "is not an IANA time zone name") }
        return value
    }

    /// A time zone that must be present (checked like ``timezone(_:)``).
    /// - Throws: ``GTFSError`` when empty.
    public func requiredTimezone(_ column: Int) throws -> String {
        guard let value = timezone(column) else { throw missing(column) }
        return value
    }

    /// An IETF BCP 47 language code (`de`, `en-US`); other forms are kept with a warning.
    public func languageCode(_ column: Int) -> String? {
        guard let value = text(column) else { return nil }
        if !TextChecks.isLanguageCode(value) { warn(column, "is not a BCP 47 language code") }
        return value
    }

    /// A language code that must be present.
    /// - Throws: ``GTFSError`` when empty.
    public func requiredLanguageCode(_ column: Int) throws -> String {
        guard let value = languageCode(column) else { throw missing(column) }
        return value
    }

    /// An ISO 4217 currency code (`EUR`); other forms are an error.
    /// - Throws: ``GTFSError`` when not three ASCII letters.
    public func currencyCode(_ column: Int) throws -> String? {
        guard let value = text(column) else { return nil }
        guard TextChecks.isCurrencyCode(value) else { throw error(column, "is not an ISO 4217 currency code") }
        return value
    }

    /// A currency code that must be present.
    /// - Throws: ``GTFSError`` when empty or not three letters.
    public func requiredCurrencyCode(_ column: Int) throws -> String {
        guard let value = try currencyCode(column) else { throw missing(column) }
        return value
    }
}

@available(*, unavailable, message: "a Row borrows the parser's buffers")
extension Row: Sendable {}
