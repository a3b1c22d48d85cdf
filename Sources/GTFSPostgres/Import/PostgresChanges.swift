import GTFS
import GTFSStoreCore

/// The rows an import into PostgreSQL changes, as `RowChange` values with the values the
/// SQLite store reports (times in seconds, dates as `YYYYMMDD`, codes as numbers): handed to
/// `ImportOptions.changeHandler`, and kept in the schema's `changes` table
/// (`ImportOptions.keepsChanges`) as the SQLite store keeps them: each row change of an
/// incremental import, one `replace` row per table of a full one.
///
/// The changes of a merge are read before it writes, through a cursor over the stored and the staged rows
/// joined by key, in key order; rows stored or removed whole, through a cursor over the table. Memory
/// stays bounded: kept changes go to the server a thousand at a time, under import 0 until the import has
/// its id. A cancel stops the `FETCH` running (``PostgresCancel``).
final class PostgresChanges {
    private let schema: String
    private let feedName: String
    private let handler: (@Sendable (RowChange) -> Void)?
    private let keeps: Bool
    /// Whether row changes are kept (an incremental import) or only replaced tables (a full one).
    private let keepsRows: Bool
    private let connection: PostgresConnection
    private var sequence: Int64 = 0
    private var cursors = 0
    /// Kept changes not sent yet: sequence, table, kind, key and columns as JSON.
    private var pending: [(Int64, String, String, String?, String?)] = []

    init(
        schema: String, feedName: String, handler: (@Sendable (RowChange) -> Void)?, keeps: Bool, keepsRows: Bool,
        connection: PostgresConnection
    ) {
        (self.schema, self.feedName, self.handler, self.keeps, self.keepsRows, self.connection) =
            (schema, feedName, handler, keeps, keepsRows, connection)
    }

    /// The columns that name a row of `table` in a change: its key, or every column without one.
    private static func keyFields(of table: PostgresTable) -> [FieldSpec] {
        table.description.keyFields.isEmpty ? table.description.fields : table.description.keyFields
    }

    /// Reports every row of `feed` in `table` as `kind`: the rows a table stored whole, or the rows about
    /// to be removed.
    func reportRows(of table: PostgresTable, feed: Int32, as kind: RowChange.Kind) throws {
        let fields = Self.keyFields(of: table)
        let sql = "SELECT \(fields.map { Self.selected($0, of: nil) }.joined(separator: ", ")) FROM \(schema).\(table.name) WHERE feed = \(feed)"
        try forEachRow(sql) { row in
            let key = fields.indices.map { RowChange.Field(column: fields[$0].name, value: Self.value(row[$0], fields[$0].type)) }
            send(RowChange(kind: kind, file: table.file, feed: feedName, key: key))
        }
    }

    /// Reports the differences a merge by key is about to write: the stored rows `stored` (a `FROM` item
    /// aliased `t`) whose key the staged rows lack (deleted), the staged rows whose key is not stored
    /// (inserted), and those whose stored row differs (updated, with the columns that differ).
    func reportMerge(of table: PostgresTable, stored: String, stage: String) throws {
        let fields = table.description.fields
        let matches = zip(table.keyExpressions(of: "s"), table.keyExpressions(of: "t")).map { "\($0) = \($1)" }.joined(separator: " AND ")
        let differ = "(\(fields.map { "t.\($0.name)" }.joined(separator: ", "))) IS DISTINCT FROM (\(fields.map { "s.\($0.name)" }.joined(separator: ", ")))"
        let order = table.description.keyFields.map { field in
            "coalesce(s.\(field.name), t.\(field.name))\(PostgresColumnType(field.type) == .text ? " COLLATE \"C\"" : "") NULLS FIRST"
        }
        let sql = """
            SELECT s.feed IS NULL, t.feed IS NULL, \(fields.map { Self.selected($0, of: "t") }.joined(separator: ", ")),
                \(fields.map { Self.selected($0, of: "s") }.joined(separator: ", "))
            FROM \(stored) FULL JOIN \(stage) s ON \(matches)
            WHERE s.feed IS NULL OR t.feed IS NULL OR \(differ)
            ORDER BY \(order.joined(separator: ", "))
            """
        let keyPositions = table.description.key
        try forEachRow(sql) { row in
            let old = fields.indices.map { Self.value(row[2 + $0], fields[$0].type) }
            let new = fields.indices.map { Self.value(row[2 + fields.count + $0], fields[$0].type) }
            let kind: RowChange.Kind = row[0] == "t" ? .delete : row[1] == "t" ? .insert : .update
            let named = kind == .delete ? old : new
            let key = keyPositions.map { RowChange.Field(column: fields[$0].name, value: named[$0]) }
            let updates = kind == .update
                ? fields.indices.filter { old[$0] != new[$0] }.map { RowChange.Update(column: fields[$0].name, old: old[$0], new: new[$0]) } : []
            send(RowChange(kind: kind, file: table.file, feed: feedName, key: key, updates: updates))
        }
    }

    /// Reports the rows a table without a key loses and gains when it is replaced: compared as multisets,
    /// every column naming the row.
    func reportReplacement(of table: PostgresTable, stored: String, stage: String) throws {
        let fields = table.description.fields
        let columns = fields.map(\.name).joined(separator: ", ")
        let selected = fields.map { Self.selected($0, of: nil) }.joined(separator: ", ")
        for (kind, from, minus) in [(RowChange.Kind.delete, stored, stage), (.insert, stage, stored)] {
            try forEachRow("SELECT \(selected) FROM (SELECT \(columns) FROM \(from) EXCEPT ALL SELECT \(columns) FROM \(minus)) x") { row in
                    let key = fields.indices.map { RowChange.Field(column: fields[$0].name, value: Self.value(row[$0], fields[$0].type)) }
                send(RowChange(kind: kind, file: table.file, feed: feedName, key: key))
            }
        }
    }

    /// Ends the import's changes: a full import keeps a `replace` row for each of `replaced`; then the kept
    /// rows get the import's id.
    func finish(importID: Int64, replaced: [GTFSFile]) throws(PostgresError) {
        guard keeps else { return }
        if !keepsRows {
            for file in replaced { keep(table: file.rawValue, kind: "replace", key: nil, columns: nil) }
        }
        try flush()
        try connection.execute("UPDATE \(schema).changes SET import_id = \(importID) WHERE import_id = 0", "number the kept changes")
    }

    private func send(_ change: RowChange) {
        handler?(change)
        guard keeps, keepsRows else { return }
        keep(table: change.file.rawValue, kind: change.kind.rawValue, key: JSONLiteral.key(of: change), columns: JSONLiteral.columns(of: change))
    }

    private func keep(table: String, kind: String, key: String?, columns: String?) {
        sequence += 1
        pending.append((sequence, table, kind, key, columns))
    }

    /// Sends the kept changes waiting.
    private func flush() throws(PostgresError) {
        guard !pending.isEmpty else { return }
        _ = try connection.query(
            """
            INSERT INTO \(schema).changes (import_id, seq, feed_name, table_name, kind, key, columns)
            SELECT 0, unnest($1::bigint[]), $2, unnest($3::text[]), unnest($4::text[]), unnest($5::text[]), unnest($6::text[])
            """,
            [
                PostgresConnection.arrayLiteral(pending.map { String($0.0) }), feedName, PostgresConnection.arrayLiteral(pending.map(\.1)),
                PostgresConnection.arrayLiteral(pending.map(\.2)), PostgresConnection.arrayLiteral(pending.map(\.3)),
                PostgresConnection.arrayLiteral(pending.map(\.4)),
            ], "keep the changes")
        pending.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with each row of `sql`, read through a cursor; kept changes are sent between batches.
    private func forEachRow(_ sql: String, _ body: ([String?]) throws -> Void) throws {
        cursors += 1
        let name = "changes_\(cursors)"
        try connection.execute("DECLARE \(name) NO SCROLL CURSOR FOR \(sql)", "read the changes")
        let cursor = PostgresCursor(name: name, batch: 500, connection: connection, operation: "read the changes")
        while let row = try cursor.nextRow() {
            try body(row)
            // Only between FETCHes: a statement while the cursor's batch is being read is fine, the rows are in hand.
            if pending.count >= 1_000 { try flush() }
        }
        try connection.execute("CLOSE \(name)", "read the changes")
    }

    /// A column as the changes read it: a date as its `YYYYMMDD` number.
    private static func selected(_ field: FieldSpec, of alias: String?) -> String {
        let column = alias.map { "\($0).\(field.name)" } ?? field.name
        return field.type == .date ? "to_char(\(column), 'YYYYMMDD')" : column
    }

    /// A value the server wrote as text, as the SQLite store holds it.
    private static func value(_ text: String?, _ type: FieldType) -> RowChange.Value {
        guard let text else { return .null }
        switch type {
        case .integer, .time, .date, .enumeration, .boolean: return Int64(text).map(RowChange.Value.integer) ?? .null
        case .decimal: return Double(text).map(RowChange.Value.real) ?? .null
        case .id, .text, .color, .currencyAmount: return .text(text)
        }
    }
}
