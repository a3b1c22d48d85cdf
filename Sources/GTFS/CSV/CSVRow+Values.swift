/// Times, dates, colors, currency amounts and enumerations.
extension CSVRow {
    // MARK: Time, date, color, money

    /// A service time (`H:MM:SS`, hours may pass 24); `nil` when empty.
    /// - Parameter field: the field.
    /// - Returns: the time; `nil` for an absent field or an empty cell.
    /// - Throws: ``GTFSError`` when not a time.
    @inline(__always)
    public func time(_ field: Field) throws -> GTFSTime? {
        guard let bytes = bytes(field) else { return nil }
        guard let value = GTFSTime(bytes: bytes) else { throw error(field, "is not a time (H:MM:SS)") }
        return value
    }

    /// A service time that must be present.
    /// - Parameter field: the field.
    /// - Returns: the time.
    /// - Throws: ``GTFSError`` when empty or not a time.
    public func requiredTime(_ field: Field) throws -> GTFSTime { try present(field, try time(field)) }

    /// A local wall-clock time (`HH:MM:SS`, at most 24:00:00); `nil` when empty.
    /// - Parameter field: the field.
    /// - Returns: the time; `nil` for an absent field or an empty cell.
    /// - Throws: ``GTFSError`` when not a time or past 24:00:00.
    public func localTime(_ field: Field) throws -> GTFSTime? {
        guard let value = try time(field) else { return nil }
        guard value.seconds <= 86_400 else { throw error(field, "is later than 24:00:00") }
        return value
    }

    /// A date (`YYYYMMDD`, validated); `nil` when empty.
    /// - Parameter field: the field.
    /// - Returns: the date; `nil` for an absent field or an empty cell.
    /// - Throws: ``GTFSError`` when not a valid date.
    public func date(_ field: Field) throws -> GTFSDate? {
        guard let bytes = bytes(field) else { return nil }
        guard let value = GTFSDate(bytes: bytes) else { throw error(field, "is not a valid date (YYYYMMDD)") }
        return value
    }

    /// A date that must be present.
    /// - Parameter field: the field.
    /// - Returns: the date.
    /// - Throws: ``GTFSError`` when empty or not a valid date.
    public func requiredDate(_ field: Field) throws -> GTFSDate { try present(field, try date(field)) }

    /// A color (six hex digits); `nil` when empty.
    /// - Parameter field: the field.
    /// - Returns: the color; `nil` for an absent field or an empty cell.
    /// - Throws: ``GTFSError`` when not six hex digits.
    public func color(_ field: Field) throws -> GTFSColor? {
        guard let bytes = bytes(field) else { return nil }
        guard let value = GTFSColor(bytes: bytes) else { throw error(field, "is not a color (six hex digits)") }
        return value
    }

    /// An exact decimal currency amount; `nil` when empty.
    /// - Parameter field: the field.
    /// - Returns: the amount; `nil` for an absent field or an empty cell.
    /// - Throws: ``GTFSError`` when not a decimal amount.
    public func currencyAmount(_ field: Field) throws -> CurrencyAmount? {
        guard let bytes = bytes(field) else { return nil }
        guard let value = CurrencyAmount(bytes: bytes) else { throw error(field, "is not a currency amount") }
        return value
    }

    /// A currency amount that must be present.
    /// - Parameter field: the field.
    /// - Returns: the amount.
    /// - Throws: ``GTFSError`` when empty or not a decimal amount.
    public func requiredCurrencyAmount(_ field: Field) throws -> CurrencyAmount { try present(field, try currencyAmount(field)) }

    // MARK: Enumerations

    /// An enumeration cell; `nil` when empty. Unknown codes are kept as `unknown(code)`.
    /// - Parameters:
    ///   - field: the field.
    ///   - type: the enumeration type; inferred from the result when omitted.
    /// - Returns: the case for the code; `nil` for an absent field or an empty cell.
    /// - Throws: ``GTFSError`` when the text is not an integer.
    @inline(__always)
    public func enumeration<E: GTFSEnum>(_ field: Field, as type: E.Type = E.self) throws -> E? {
        guard let bytes = bytes(field) else { return nil }
        guard let code = NumberParsing.integer(bytes) else { throw error(field, "is not an integer code") }
        return E(code: code)
    }

    /// An enumeration cell that must be present.
    /// - Parameters:
    ///   - field: the field.
    ///   - type: the enumeration type; inferred from the result when omitted.
    /// - Returns: the case for the code.
    /// - Throws: ``GTFSError`` when empty or not an integer.
    public func requiredEnumeration<E: GTFSEnum>(_ field: Field, as type: E.Type = E.self) throws -> E { try present(field, try enumeration(field, as: type)) }
}
