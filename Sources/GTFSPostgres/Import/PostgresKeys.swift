import GTFS

/// Keys of tables loaded without one: added after the load, and rows that repeat a key rejected by name.
enum PostgresKeys {
    /// Adds the key of a table created and loaded in this transaction. When rows repeat a key, the later
    /// ones (in load order) are deleted, named, and the key added again: a repeated key costs only the
    /// imports that have one.
    /// - Returns: the errors of the rows deleted, and their groups.
    static func addKey(
        to table: PostgresTable, schema: String, fileName: String, connection: PostgresConnection
    ) throws(PostgresError) -> (errors: [GTFSError], groups: Set<String>) {
        try add(table.keyStatements(schema: schema), of: table, in: "\(schema).\(table.name)", fileName: fileName, connection: connection)
    }

    /// Runs `statements`, which key `relation` (a table of `table`'s columns that this transaction only
    /// appended to): when they fail on a repeated key, the later rows are deleted and they run again.
    /// - Returns: the errors of the rows deleted, and their groups.
    static func add(
        _ statements: [String], of table: PostgresTable, in relation: String, fileName: String, connection: PostgresConnection
    ) throws(PostgresError) -> (errors: [GTFSError], groups: Set<String>) {
        try add(statements, name: table.name, connection: connection) { () throws(PostgresError) in
            try removeRepeatedKeys(of: table, in: relation, fileName: fileName, connection: connection)
        } ?? ([], [])
    }

    /// Runs `statements`, which add a key, inside a savepoint: when they fail on a repeated key (23505),
    /// undoes them, runs `repair`, and runs them again. A repeated key costs only the loads that have one.
    /// - Returns: what `repair` gave, or `nil` when the key went in at once.
    static func add<Repaired>(
        _ statements: [String], name: String, connection: PostgresConnection, repair: () throws(PostgresError) -> Repaired
    ) throws(PostgresError) -> Repaired? {
        guard !statements.isEmpty else { return nil }
        try connection.execute("SAVEPOINT key", "key \(name)")
        do {
            for statement in statements { try connection.execute(statement, "key \(name)") }
            try connection.execute("RELEASE SAVEPOINT key", "key \(name)")
            return nil
        } catch where error.sqlState == "23505" {
            try connection.execute("ROLLBACK TO SAVEPOINT key; RELEASE SAVEPOINT key", "key \(name)")
        }
        let repaired = try repair()
        for statement in statements { try connection.execute(statement, "key \(name)") }
        return repaired
    }

    /// Deletes the rows of `relation` whose key (with `feed`) an earlier row holds. `relation` must have
    /// been only appended to in this transaction, so that `ctid` order is load order.
    /// - Returns: the errors of the rows deleted, in no particular order, and their groups (the key's first
    ///   value, which is the group of a grouped table).
    private static func removeRepeatedKeys(
        of table: PostgresTable, in relation: String, fileName: String, connection: PostgresConnection
    ) throws(PostgresError) -> (errors: [GTFSError], groups: Set<String>) {
        let key = table.keyExpressions
        let deleted = try connection.query(
            """
            DELETE FROM \(relation) t USING (
                SELECT ctid, row_number() OVER (PARTITION BY \(key.joined(separator: ", ")), feed ORDER BY ctid) AS n
                FROM \(relation)) d
            WHERE t.ctid = d.ctid AND d.n > 1
            RETURNING \(table.description.keyFields.map { "t.\($0.name)::text" }.joined(separator: ", "))
            """, [], "remove repeated keys of \(table.name)")
        let columns = table.description.keyFields.map(\.name).joined(separator: ", ")
        let errors = deleted.map { values in
            GTFSError(
                .duplicateKey, file: fileName, column: columns, text: "(" + values.map { "\"\($0 ?? "")\"" }.joined(separator: ", ") + ")",
                message: "repeats an earlier row; rejected")
        }
        return (errors, Set(deleted.compactMap { $0.first.flatMap { $0 } }))
    }
}
