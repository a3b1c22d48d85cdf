extension TableDescription {
    /// The description of `Record`'s file.
    /// - Parameter record: the record type.
    public init<Record: GTFSRecord>(_ record: Record.Type) {
        self.init(file: Record.file, fields: Record.Field.allCases.map(\.spec), key: Record.Field.key.map(\.rawValue))
    }
}

extension KeyValues {
    /// Takes the values of `fields` from `record`.
    ///
    /// - Parameters:
    ///   - record: the record.
    ///   - fields: the fields' positions (``GTFSField`` raw values), in the order wanted; a position that
    ///     names no field reads as the empty text.
    package init<R: GTFSRecord>(of record: R, fields: [Int]) {
        var sink = Capture(
            fields: fields, times: fields.map { R.Field(rawValue: $0)?.spec.type == .time },
            values: Array(repeating: .text(""), count: fields.count))
        record.write(to: &sink)
        self.init(values: sink.values)
    }
}
