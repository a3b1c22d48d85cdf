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

    /// `CREATE TABLE` without its key, which ``keyStatements(schema:)`` adds after the load. Identifiers
    /// compare byte by byte (`COLLATE "C"`): they are opaque, and keys and indexes on them build and look up
    /// faster than under a language's collation.
    func createStatement(schema: String) -> String {
        var definitions = ["feed integer NOT NULL"]
        definitions += description.fields.map { field in
            "\(field.name) \(PostgresColumnType(field.type).sql)\(field.type == .id ? " COLLATE \"C\"" : "")\(field.isNullable ? "" : " NOT NULL")"
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
    /// empty values are one key. Empty for a table without a key.
    var keyExpressions: [String] { keyExpressions(of: nil) }

    /// ``keyExpressions`` with each column qualified by `alias` (`t.trip_id`).
    func keyExpressions(of alias: String?) -> [String] {
        let prefix = alias.map { "\($0)." } ?? ""
        return description.keyFields.map { field in
            field.isNullable
                ? "coalesce(\(prefix)\(field.name)\(PostgresColumnType(field.type) == .text ? "" : "::text"), '')" : prefix + field.name
        }
    }

    /// The key as `ON CONFLICT` names it, the key's index inferred from it: `(trip_id, stop_sequence, feed)`,
    /// an expression in parentheses.
    var conflictTarget: String {
        "(" + (keyExpressions.map { $0.hasPrefix("coalesce(") ? "(\($0))" : $0 } + ["feed"]).joined(separator: ", ") + ")"
    }

    /// The column names: `feed`, then the fields.
    var columnNames: [String] { ["feed"] + description.fields.map(\.name) }

    /// For each field, whether a file's rows can hold a value in it, given which fields its header names
    /// (``RecordBatch/columnsInHeader``; empty when unknown, then all): those named, and those that are
    /// never empty (a default stands for an absent column). A `COPY` names only these: the server, which
    /// sets the pace of a load, fills the others with NULL instead of reading a field per row for each.
    func sentColumns(inHeader: [Bool]) -> [Bool] {
        guard inHeader.count == description.fields.count else { return description.fields.map { _ in true } }
        return zip(description.fields, inHeader).map { field, named in named || !field.isNullable }
    }
}
