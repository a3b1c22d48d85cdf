import Foundation
import GTFS
import GTFSStoreCore

/// One read of the PostgreSQL store: a read-only transaction at `REPEATABLE READ`, so that every query of
/// it sees the same committed state (an import committing meanwhile is seen by the next read, whole). Its
/// `search_path` is the store's schema: the queries both stores share name tables without a schema.
struct PostgresReading {
    let schema: String
    let connection: PostgresConnection
    /// Names the cursors of this read.
    private var cursors = 0

    private init(schema: String, connection: PostgresConnection) {
        (self.schema, self.connection) = (schema, connection)
    }

    /// Runs `body` in a read-only snapshot, which ends with it; on an error it is rolled back.
    static func run<T>(
        schema: String, connection: PostgresConnection, _ body: (inout PostgresReading) throws -> T
    ) throws -> T {
        try connection.execute(
            "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL search_path TO \(schema), pg_catalog, pg_temp", "begin a read")
        var reading = PostgresReading(schema: schema, connection: connection)
        do {
            let result = try body(&reading)
            try connection.execute("COMMIT", "end a read")
            return result
        } catch {
            _ = try? connection.execute("ROLLBACK", "end a read")
            throw error
        }
    }

    /// The number of the feed named `name`; `nil` when the schema holds no such feed, or no store at all.
    func feed(named name: String) throws(PostgresError) -> Int32? {
        let exists = try connection.query("SELECT to_regclass($1) IS NOT NULL", ["\(schema).feeds"], "look for feeds")
        guard exists.first?.first == "t" else { return nil }
        return try PostgresStore.feedNumber(name, schema: schema, connection: connection)
    }

    /// The names of the schema's feeds, in order; none when it has no `feeds` table.
    func feedNames() throws(PostgresError) -> [String] {
        let exists = try connection.query("SELECT to_regclass($1) IS NOT NULL", ["\(schema).feeds"], "look for feeds")
        guard exists.first?.first == "t" else { return [] }
        return try query(BoardQuery.feedNamesSQL, [], "list the feeds").compactMap { $0.first ?? nil }
    }

    /// Rows of one query with text parameters, all at once: for answers of a bounded size.
    func query(_ sql: String, _ arguments: [SQLArgument], _ operation: String) throws(PostgresError) -> [[String?]] {
        try connection.query(sql, arguments.map(\.text), operation)
    }

    /// A cursor over a query's rows, which it fetches `batch` at a time: an answer of any size in bounded memory.
    mutating func cursor(_ sql: String, _ arguments: [SQLArgument], batch: Int = 500, _ operation: String) throws(PostgresError) -> PostgresCursor {
        cursors += 1
        let name = "read_\(cursors)"
        _ = try connection.query("DECLARE \(name) NO SCROLL CURSOR FOR \(sql)", arguments.map(\.text), operation)
        return PostgresCursor(name: name, batch: batch, connection: connection, operation: operation)
    }

    /// The records of `R`'s table in `feed` that meet `condition` (SQL with `$1`, `$2`, … for
    /// `arguments`), in `order`, read back through `StoredRecordReader` as the SQLite store reads them.
    func records<R: GTFSRecord>(
        _ type: R.Type, feed: Int32, where condition: String? = nil, _ arguments: [SQLArgument] = [], order: String? = nil
    ) throws -> [R] {
        let fields = R.file.table.fields
        let columns = fields.map { $0.type == .date ? "to_char(\($0.name), 'YYYYMMDD')" : $0.name }
        var sql = "SELECT \(columns.joined(separator: ", ")) FROM \(schema).\(R.file.rawValue) WHERE feed = $\(arguments.count + 1)"
        if let condition { sql += " AND (\(condition))" }
        if let order { sql += " ORDER BY \(order)" }
        var reader = StoredRecordReader<R>()
        for row in try query(sql, arguments + [.integer(Int64(feed))], "read \(R.file.fileName)") {
            reader.add(zip(row, fields).map { Self.storedValue($0, $1.type) })
        }
        return try reader.records()
    }

    /// A value as the server wrote it in text, typed as the SQLite store would hold it.
    private static func storedValue(_ text: String?, _ type: FieldType) -> StoredValue {
        guard let text else { return .null }
        switch type {
        case .integer, .time, .date, .enumeration, .boolean: return Int64(text).map(StoredValue.integer) ?? .null
        case .decimal: return Double(text).map(StoredValue.double) ?? .null
        case .id, .text, .color, .currencyAmount: return .text(text)
        }
    }
}

extension PostgresStore {
    /// Runs `body` in one read (``PostgresReading``) on the store's connection.
    /// - Throws: ``PostgresError`` when called from inside another call on this store (a board's body, an
    ///   import's change handler): its transaction would end the other's snapshot and cursors.
    func read<T>(_ body: (inout PostgresReading) throws -> T) throws -> T {
        try exclusively("read") { () throws -> T in try PostgresReading.run(schema: schema, connection: connection, body) }
    }
}

/// A row as the server sends it: every value in text.
struct TextRow: BoardRow {
    let values: [String?]

    func integer(_ index: Int) -> Int64? { index < values.count ? values[index].flatMap { Int64($0) } : nil }
    func text(_ index: Int) -> String? { index < values.count ? values[index] : nil }
    func real(_ index: Int) -> Double? { index < values.count ? values[index].flatMap { Double($0) } : nil }
}

extension SQLArgument {
    /// The argument as a text parameter.
    var text: String? {
        switch self {
        case .text(let text): text
        case .integer(let number): String(number)
        case .real(let number): String(number)
        case .null: nil
        }
    }
}
