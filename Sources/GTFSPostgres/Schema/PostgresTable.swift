import GTFS

/// A GTFS table as the PostgreSQL store holds it, derived from the file's description as the SQLite
/// store's tables are: `feed` first, one column per field with its ``PostgresColumnType``, the key ending
/// with `feed`, created after the load.
struct PostgresTable: Sendable {
    let file: GTFSFile
    let description: TableDescription

    init(_ file: GTFSFile) {
        self.file = file
        description = file.table
    }

    /// The table's name: the file's name without its extension (`stop_times`).
    var name: String { file.rawValue }

    /// The column types after `feed`.
    var types: [PostgresColumnType] { description.fields.map { PostgresColumnType($0.type) } }

    /// `CREATE TABLE` without its key, which ``keyStatements(schema:)`` adds after the load.
    func createStatement(schema: String) -> String {
        var definitions = ["feed integer NOT NULL"]
        definitions += description.fields.map { field in
            "\(field.name) \(PostgresColumnType(field.type).sql)\(field.isNullable ? "" : " NOT NULL")"
        }
        return "CREATE TABLE \(schema).\(name) (\(definitions.joined(separator: ", ")))"
    }

    /// The key: a primary key when no part may be empty, otherwise a unique index on its parts with empty
    /// parts read as '' (so two empty values are one key, as GTFS means them). None without a key.
    func keyStatements(schema: String) -> [String] {
        let key = description.keyFields
        guard !key.isEmpty else { return [] }
        if key.allSatisfy({ !$0.isNullable }) {
            let columns = (key.map(\.name) + ["feed"]).joined(separator: ", ")
            return ["ALTER TABLE \(schema).\(name) ADD PRIMARY KEY (\(columns))"]
        }
        return ["CREATE UNIQUE INDEX \(name)_key ON \(schema).\(name) (\((keyExpressions + ["feed"]).joined(separator: ", ")))"]
    }

    /// The key's parts as SQL without `feed`: a part that may be empty reads as '' (as text), so that two
    /// empty values are one key.
    var keyExpressions: [String] {
        description.keyFields.map { field in
            field.isNullable ? "coalesce(\(field.name)\(PostgresColumnType(field.type) == .text ? "" : "::text"), '')" : field.name
        }
    }

    /// `COPY … FROM STDIN (FORMAT binary)` with every column named.
    /// - Parameter freeze: write the rows frozen, allowed into a table created in the same transaction:
    ///   later scans (the key and index builds among them) need no visibility checks.
    func copyStatement(schema: String, freeze: Bool) -> String {
        let columns = (["feed"] + description.fields.map(\.name)).joined(separator: ", ")
        return "COPY \(schema).\(name) (\(columns)) FROM STDIN (FORMAT binary\(freeze ? ", FREEZE" : ""))"
    }
}
