/// A write transaction of a store as the realtime engine uses it: both stores implement these two calls,
/// and everything else (which rows, which SQL) is the engine's, once.
package protocol RealtimeSession {
    /// How the store's SQL differs.
    var dialect: SQLDialect { get }
    /// Runs a statement; returns the rows it changed.
    @discardableResult
    func execute(_ sql: String, _ arguments: [SQLArgument]) throws -> Int
    /// Calls `body` with each row of a query.
    func query(_ sql: String, _ arguments: [SQLArgument], _ body: (any BoardRow) throws -> Void) throws
}

/// Rows of one realtime table gathered into multi-row `INSERT`s: a round trip per few hundred rows
/// rather than per row, which is most of the time of a first poll on a server.
struct RealtimeInserts {
    let table: RealtimeTables.Table
    private var values: [SQLArgument] = []
    private var rows = 0
    private(set) var written = 0
    /// Both stores take well over the parameters of this many rows of the widest table in a statement.
    private static let rowsPerStatement = 200

    init(_ table: RealtimeTables.Table) { self.table = table }

    /// Adds a row (values in the table's column order), writing a statement when enough are gathered.
    mutating func add(_ row: [SQLArgument], _ session: some RealtimeSession) throws {
        precondition(row.count == table.columns.count, "a row of \(table.name) has \(table.columns.count) values")
        values += row
        rows += 1
        if rows == Self.rowsPerStatement { try flush(session) }
    }

    /// Writes the rows gathered.
    mutating func flush(_ session: some RealtimeSession) throws {
        guard rows > 0 else { return }
        let width = table.columns.count
        let tuples = (0 ..< rows).map { row in
            "(" + (0 ..< width).map { session.dialect.placeholder(row * width + $0 + 1) }.joined(separator: ", ") + ")"
        }
        let updates = table.columnNames.filter { !table.key.contains($0) }.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        try session.execute(
            """
            INSERT INTO \(table.name) (\(table.columnNames.joined(separator: ", "))) VALUES \(tuples.joined(separator: ", ")) \
            ON CONFLICT (\(table.key.joined(separator: ", "))) DO UPDATE SET \(updates)
            """, values)
        written += rows
        (values, rows) = ([], 0)
    }
}
