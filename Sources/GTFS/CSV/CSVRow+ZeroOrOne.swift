/// Yes/no fields coded `0`/`1` (calendar weekdays, `is_bidirectional`, attribution roles), read as `Bool`.
extension CSVRow {
    /// A `0`/`1` cell as a `Bool`; `nil` when empty.
    /// - Throws: ``GTFSError`` when the text is anything but `0` or `1`.
    func zeroOrOne(_ field: Field) throws -> Bool? {
        guard let bytes = bytes(field) else { return nil }
        switch NumberParsing.integer(bytes) {
        case 0: return false
        case 1: return true
        default: throw error(field, "is not 0 or 1")
        }
    }

    /// A `0`/`1` cell that must be present, as a `Bool`.
    /// - Throws: ``GTFSError`` when empty or anything but `0` or `1`.
    func requiredZeroOrOne(_ field: Field) throws -> Bool { try present(field, try zeroOrOne(field)) }
}
