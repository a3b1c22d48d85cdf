extension PostgresTable {
    /// `COPY … FROM STDIN` in `format`, naming `feed` and the columns of `sent`.
    /// - Parameter freeze: write the rows frozen, allowed into a table created in the same transaction:
    ///   later scans (the key and index builds among them) need no visibility checks.
    func copyStatement(schema: String, freeze: Bool, format: CopyFormat, sent: [Bool]) -> String {
        copyStatement(into: "\(schema).\(name)", freeze: freeze, format: format, sent: sent)
    }

    /// `COPY … FROM STDIN` in `format` into `table` (a staging copy), naming `feed` and the columns of `sent`.
    func copyStatement(into table: String, freeze: Bool, format: CopyFormat, sent: [Bool]) -> String {
        let names = ["feed"] + zip(description.fields, sent).filter(\.1).map(\.0.name)
        return "COPY \(table) (\(names.joined(separator: ", "))) FROM STDIN\(format.options(freeze: freeze))"
    }
}
