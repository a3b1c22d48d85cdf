/// Rows of a query declared as a cursor in a read, fetched a batch at a time as they are asked for.
final class PostgresCursor {
    private let name: String
    private let batch: Int
    private let connection: PostgresConnection
    private let operation: String
    private var rows: [[String?]] = []
    private var next = 0
    private var ended = false

    init(name: String, batch: Int, connection: PostgresConnection, operation: String) {
        (self.name, self.batch, self.connection, self.operation) = (name, batch, connection, operation)
    }

    /// The next row; `nil` after the last.
    func nextRow() throws(PostgresError) -> [String?]? {
        if next == rows.count {
            guard !ended else { return nil }
            rows = try connection.query("FETCH FORWARD \(batch) FROM \(name)", operation)
            next = 0
            ended = rows.count < batch
            if rows.isEmpty { return nil }
        }
        defer { next += 1 }
        return rows[next]
    }
}
