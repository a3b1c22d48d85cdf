package import GTFS
import Foundation
import LineReader

/// A value as a store holds it, before it is read back as a record.
package enum StoredValue {
    case null
    case integer(Int64)
    case double(Double)
    case text(String)
}

/// Reads rows of a store's table back as records: each row is written out as the CSV line its file would
/// have had (times as `HH:MM:SS`, dates as `YYYYMMDD`, codes as numbers) and decoded by the record's own
/// `GTFSRecord.init(row:)`, so reading back and importing can never disagree on a value, in either
/// store. A row that does not decode (written by other means than an import: a row breaking a rule of
/// the reference) is left out.
package struct StoredRecordReader<R: GTFSRecord> {
    private let fields: [FieldSpec]
    private var text: String

    /// A reader of `R`'s table, whose rows give the values of its fields in order.
    package init() {
        fields = R.file.table.fields
        text = fields.map(\.name).joined(separator: ",") + "\n"
    }

    /// Adds a row: the values of the table's fields, in their order.
    package mutating func add(_ values: [StoredValue]) {
        for (index, field) in fields.enumerated() {
            if index > 0 { text += "," }
            Self.cell(index < values.count ? values[index] : .null, field.type, into: &text)
        }
        text += "\n"
    }

    /// The records of the rows added.
    /// - Throws: what the parse throws of text it wrote itself (nothing in practice).
    package func records() throws -> [R] {
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
    private static func cell(_ value: StoredValue, _ type: FieldType, into text: inout String) {
        switch value {
        case .null:
            break
        case .integer(let number):
            switch type {
            case .time: text += GTFSTime(seconds: Int32(clamping: number)).description
            case .date: text += String(repeating: "0", count: max(0, 8 - String(number).count)) + String(number)
            default: text += String(number)
            }
        case .double(let number):
            // Decimal notation: the field parsers read no exponents.
            let shortest = String(number)
            text += shortest.contains("e") ? String(format: "%.12f", number) : shortest
        case .text(let string):
            // Quoted, so that nothing is trimmed or split.
            text += "\"" + string.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
    }
}
