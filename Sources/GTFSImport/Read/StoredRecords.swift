import Foundation
import GRDB
import GTFS

/// Reads rows of the store's tables back as records, through `StoredRecordReader` (the
/// decoder an import uses, as the PostgreSQL store reads them).
enum StoredRecords {
    /// The records of `R`'s table in `feed` that meet `condition` (SQL on the table's columns, with `?`
    /// placeholders for `arguments`), in `order`.
    /// - Throws: `DatabaseError`.
    static func fetch<R: GTFSRecord>(
        _ type: R.Type, _ db: Database, feed: Int64, where condition: String? = nil, arguments: StatementArguments = [],
        order: String? = nil
    ) throws -> [R] {
        let table = StoreTable(R.file)
        var sql = "SELECT \(table.columns.joined(separator: ", ")) FROM \(table.name) WHERE feed = ?"
        if let condition { sql += " AND (\(condition))" }
        if let order { sql += " ORDER BY \(order)" }
        var reader = StoredRecordReader<R>()
        let rows = try Row.fetchCursor(db, sql: sql, arguments: [feed] + arguments)
        while let row = try rows.next() {
            reader.add(row.databaseValues.map(\.storedValue))
        }
        return try reader.records()
    }
}

extension DatabaseValue {
    /// The value for `StoredRecordReader` (a blob, which no import writes, as NULL).
    fileprivate var storedValue: StoredValue {
        switch storage {
        case .null, .blob: .null
        case .int64(let number): .integer(number)
        case .double(let number): .double(number)
        case .string(let string): .text(string)
        }
    }
}
