import GTFS

/// A GTFS table as the store holds it, derived from the file's description (``GTFS/TableDescription``):
/// `feed` and then one column per field with its SQL type, its key, and the statements that create a copy
/// of it. Live code reads tables through this; the migrations that created them stay frozen text, and a
/// test checks that the two agree.
struct StoreTable: Sendable {
    /// The file.
    let file: GTFSFile
    /// Its fields and key.
    let description: TableDescription

    init(_ file: GTFSFile) {
        self.file = file
        description = file.table
    }

    /// The table's name: the file's name without `.txt` (`stop_times`).
    var name: String { file.rawValue }

    /// The columns after `feed`: the field names, in reference order.
    var columns: [String] { description.fields.map(\.name) }

    /// The key's columns without `feed` (`trip_id`, `stop_sequence`), for messages; empty without a key.
    var keyColumns: [String] { description.keyFields.map(\.name) }

    /// The fields whose values no two rows of a feed share, the ones a refused row repeats: the key, or
    /// `attribution_id` for `attributions` (no key, but ids unique when given); as positions in the
    /// description's fields, empty when the table refuses no row.
    var uniqueFields: [Int] {
        if !description.key.isEmpty { return description.key }
        guard file == .attributions, let id = description.fields.firstIndex(where: { $0.name == "attribution_id" }) else { return [] }
        return [id]
    }

    /// The key as SQL expressions without `feed`: a field that may be empty reads as the empty text
    /// (`ifnull(agency_id, '')`), so two empty values are one key, as GTFS means them; `nil` without a key.
    var keyExpressions: [String]? {
        let key = description.keyFields
        return key.isEmpty ? nil : key.map { $0.isNullable ? "ifnull(\($0.name), '')" : $0.name }
    }

    /// Whether the key is the primary key (no part may be empty) rather than a unique index.
    var hasPrimaryKey: Bool {
        let key = description.keyFields
        return !key.isEmpty && key.allSatisfy { !$0.isNullable }
    }

    /// The two large tables, stored WITHOUT ROWID, clustered by their key: measured on 2 M VBB-like
    /// stop_times, 27% faster to load and 11% smaller than a rowid table whose key needs a second B-tree.
    static let clustered: Set<GTFSFile> = [.stopTimes, .shapes]

    /// The statements that create a copy of the table named `name` (schema-qualified or not), with the
    /// same columns and key, so that it refuses the same rows: the table, and its unique key index when the
    /// key is not the primary key. `attributions` also keeps its ids unique when given (not a key: rows
    /// without one repeat).
    func createStatements(named name: String, schema: String? = nil) -> [String] {
        let qualified = schema.map { "\($0).\(name)" } ?? name
        var definitions = ["feed INTEGER NOT NULL"]
        definitions += description.fields.map { field in
            "\(field.name) \(Self.sqlType(field.type))\(field.isNullable ? "" : " NOT NULL")"
        }
        if hasPrimaryKey { definitions.append("PRIMARY KEY (\((keyColumns + ["feed"]).joined(separator: ", ")))") }
        var statements = [
            "CREATE TABLE \(qualified) (\(definitions.joined(separator: ", ")))" + (Self.clustered.contains(file) ? " WITHOUT ROWID" : "")
        ]
        // Without a primary key: the key's expressions (empty parts as ''), or the unique fields as they are.
        let unique = hasPrimaryKey ? [] : keyExpressions ?? uniqueFields.map { description.fields[$0].name }
        if !unique.isEmpty {
            let index = schema.map { "\($0).\(name)_key" } ?? "\(name)_key"
            statements.append("CREATE UNIQUE INDEX \(index) ON \(name) (\((unique + ["feed"]).joined(separator: ", ")))")
        }
        return statements
    }

    /// The SQL type of a field type's primitive values.
    static func sqlType(_ type: FieldType) -> String {
        switch type.primitive {
        case .text: "TEXT"
        case .integer: "INTEGER"
        case .real: "REAL"
        }
    }
}
