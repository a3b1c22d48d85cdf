/// Integer and decimal cells, coordinates included.
extension CSVRow {
    // MARK: Integers

    /// An integer cell; `nil` when empty.
    /// - Parameter field: the field.
    /// - Returns: the integer; `nil` for an absent field or an empty cell.
    /// - Throws: ``GTFSError`` when the text is not an integer.
    @inline(__always)
    public func int(_ field: Field) throws -> Int? {
        guard let bytes = bytes(field) else { return nil }
        guard let value = NumberParsing.integer(bytes) else { throw error(field, "is not an integer") }
        return value
    }

    /// An integer cell that must be present.
    /// - Parameter field: the field.
    /// - Returns: the integer.
    /// - Throws: ``GTFSError`` when empty or not an integer.
    @inline(__always)
    public func requiredInt(_ field: Field) throws -> Int { try present(field, try int(field)) }

    /// A non-negative integer cell (≥ 0); `nil` when empty.
    /// - Parameter field: the field.
    /// - Returns: the integer; `nil` for an absent field or an empty cell.
    /// - Throws: ``GTFSError`` when not an integer or negative.
    @inline(__always)
    public func nonNegativeInt(_ field: Field) throws -> Int? {
        guard let value = try int(field) else { return nil }
        guard value >= 0 else { throw error(field, "is not a non-negative integer") }
        return value
    }

    /// A non-negative integer cell that must be present.
    /// - Parameter field: the field.
    /// - Returns: the integer.
    /// - Throws: ``GTFSError`` when empty, not an integer or negative.
    @inline(__always)
    public func requiredNonNegativeInt(_ field: Field) throws -> Int { try present(field, try nonNegativeInt(field)) }

    /// A positive integer cell (> 0); `nil` when empty.
    /// - Parameter field: the field.
    /// - Returns: the integer; `nil` for an absent field or an empty cell.
    /// - Throws: ``GTFSError`` when not an integer or not positive.
    public func positiveInt(_ field: Field) throws -> Int? {
        guard let value = try int(field) else { return nil }
        guard value > 0 else { throw error(field, "is not a positive integer") }
        return value
    }

    /// A positive integer cell that must be present.
    /// - Parameter field: the field.
    /// - Returns: the integer.
    /// - Throws: ``GTFSError`` when empty, not an integer or not positive.
    public func requiredPositiveInt(_ field: Field) throws -> Int { try present(field, try positiveInt(field)) }

    // MARK: Decimals

    /// A decimal number cell; `nil` when empty.
    /// - Parameter field: the field.
    /// - Returns: the number; `nil` for an absent field or an empty cell.
    /// - Throws: ``GTFSError`` when the text is not a decimal number (`52,53` is not).
    @inline(__always)
    public func double(_ field: Field) throws -> Double? {
        guard let bytes = bytes(field) else { return nil }
        guard let value = NumberParsing.decimal(bytes) else { throw error(field, "is not a decimal number") }
        return value
    }

    /// A decimal number cell that must be present.
    /// - Parameter field: the field.
    /// - Returns: the number.
    /// - Throws: ``GTFSError`` when empty or not a decimal number.
    public func requiredDouble(_ field: Field) throws -> Double { try present(field, try double(field)) }

    /// A non-negative decimal cell; `nil` when empty.
    /// - Parameter field: the field.
    /// - Returns: the number; `nil` for an absent field or an empty cell.
    /// - Throws: ``GTFSError`` when not a number or negative.
    public func nonNegativeDouble(_ field: Field) throws -> Double? {
        guard let value = try double(field) else { return nil }
        guard value >= 0 else { throw error(field, "is not a non-negative number") }
        return value
    }

    /// A positive decimal cell; `nil` when empty.
    /// - Parameter field: the field.
    /// - Returns: the number; `nil` for an absent field or an empty cell.
    /// - Throws: ``GTFSError`` when not a number or not positive.
    public func positiveDouble(_ field: Field) throws -> Double? {
        guard let value = try double(field) else { return nil }
        guard value > 0 else { throw error(field, "is not a positive number") }
        return value
    }

    /// A WGS84 latitude, −90…90; `nil` when empty.
    /// - Parameter field: the field.
    /// - Returns: the latitude in degrees; `nil` for an absent field or an empty cell.
    /// - Throws: ``GTFSError`` when not a number or out of range.
    public func latitude(_ field: Field) throws -> Double? {
        guard let value = try double(field) else { return nil }
        guard value >= -90 && value <= 90 else { throw error(field, "is not a latitude (-90 to 90)") }
        return value
    }

    /// A WGS84 longitude, −180…180; `nil` when empty.
    /// - Parameter field: the field.
    /// - Returns: the longitude in degrees; `nil` for an absent field or an empty cell.
    /// - Throws: ``GTFSError`` when not a number or out of range.
    public func longitude(_ field: Field) throws -> Double? {
        guard let value = try double(field) else { return nil }
        guard value >= -180 && value <= 180 else { throw error(field, "is not a longitude (-180 to 180)") }
        return value
    }

    /// A latitude that must be present.
    /// - Parameter field: the field.
    /// - Returns: the latitude in degrees.
    /// - Throws: ``GTFSError`` when empty, not a number or out of range.
    public func requiredLatitude(_ field: Field) throws -> Double { try present(field, try latitude(field)) }

    /// A longitude that must be present.
    /// - Parameter field: the field.
    /// - Returns: the longitude in degrees.
    /// - Throws: ``GTFSError`` when empty, not a number or out of range.
    public func requiredLongitude(_ field: Field) throws -> Double { try present(field, try longitude(field)) }
}
