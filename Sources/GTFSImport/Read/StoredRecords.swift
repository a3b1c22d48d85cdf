import Foundation
import GRDB
import GTFS
import LineReader

/// Reads rows of a store table back as records: each row is written out as the CSV line its file would
/// have had (times as `HH:MM:SS`, dates as `YYYYMMDD`, codes as numbers) and decoded by the record's own
/// ``GTFS/GTFSRecord/init(row:)``, so reading back and importing can never disagree on a value. A row
/// that does not decode (written by other means than an import: a row breaking a rule of the reference)
/// is left out.
enum StoredRecords {
    /// The records of `R`'s table in `feed` that meet `condition` (SQL on the table's columns, with `?`
    /// placeholders for `arguments`), in `order`.
    /// - Throws: `DatabaseError`.
    static func fetch<R: GTFSRecord>(
        _ type: R.Type, _ db: Database, feed: Int64, where condition: String? = nil, arguments: StatementArguments = [],
        order: String? = nil
    ) throws -> [R] {
        let table = StoreTable(R.file)
        let fields = table.description.fields
        var sql = "SELECT \(table.columns.joined(separator: ", ")) FROM \(table.name) WHERE feed = ?"
        if let condition { sql += " AND (\(condition))" }
        if let order { sql += " ORDER BY \(order)" }
        var text = table.columns.joined(separator: ",") + "\n"
        let rows = try Row.fetchCursor(db, sql: sql, arguments: [feed] + arguments)
        while let row = try rows.next() {
            for (index, field) in fields.enumerated() {
                if index > 0 { text += "," }
                cell(row[index], field.type, into: &text)
            }
            text += "\n"
        }
        var options = ParseOptions()
        // Whatever an import accepted is read back, under any limits it was given.
        options.maxIDLength = ParseOptions.maxFieldLengthLimit
        options.maxTextLength = ParseOptions.maxFieldLengthLimit
        var records: [R] = []
        _ = try TableParser.parse(R.self, from: Reader(bytes: Array(text.utf8)), fileName: R.file.fileName, options: options) {
            records += $0
        }
        return records
    }

    /// Appends a stored value as the CSV cell its file would hold.
    private static func cell(_ value: DatabaseValue, _ type: FieldType, into text: inout String) {
        switch value.storage {
        case .null, .blob:
            break
        case .int64(let number):
            switch type {
            case .time: text += GTFSTime(seconds: Int32(clamping: number)).description
            case .date: text += String(repeating: "0", count: max(0, 8 - String(number).count)) + String(number)
            default: text += String(number)
            }
        case .double(let number):
            // Decimal notation: the field parsers read no exponents.
            let shortest = String(number)
            text += shortest.contains("e") ? String(format: "%.12f", number) : shortest
        case .string(let string):
            // Quoted, so that nothing is trimmed or split.
            text += "\"" + string.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
    }
}
