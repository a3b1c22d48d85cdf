import Foundation
import GRDBSQLite
import GTFS

/// The values of some records as the store would hold them, kept in memory so that they can be ordered by
/// key and compared with stored rows without a staging copy (see ``GroupComparer``).
///
/// Each record's values are taken through its `write(to:)`, as ``SQLiteRowBinder`` binds them, and then
/// given the column's affinity: an integer in a REAL column becomes a double, as SQLite stores it. A value
/// whose type SQLite would convert otherwise (text in a numeric column, a number in a TEXT column, a double
/// in an INTEGER column) is not imitated: ``add(_:)`` reports it, and the caller compares in SQLite instead.
struct RowImages {
    /// One value as the store holds it.
    enum Value {
        case null
        case integer(Int64)
        case real(Double)
        /// UTF-8 bytes at `start` in ``text``.
        case text(start: Int, count: Int)
    }

    /// The primitive of each column, in the order records write them.
    let primitives: [FieldPrimitive]
    /// Every value, row after row (`primitives.count` per row).
    private(set) var values: [Value] = []
    /// The bytes of every text value.
    private(set) var text: [UInt8] = []

    init(primitives: [FieldPrimitive]) {
        self.primitives = primitives
    }

    /// The number of rows.
    var count: Int { primitives.isEmpty ? 0 : values.count / primitives.count }

    /// Adds a record's values.
    /// - Returns: `false` when a value's type is not the column's (nothing is added then).
    mutating func add<R: GTFSRecord>(_ record: R) -> Bool {
        let start = values.count, textStart = text.count
        var sink = Sink(primitives: primitives)
        swap(&sink.values, &values)
        swap(&sink.text, &text)
        record.write(to: &sink)
        swap(&sink.values, &values)
        swap(&sink.text, &text)
        guard sink.typed, values.count - start == primitives.count else {
            values.removeSubrange(start...)
            text.removeSubrange(textStart...)
            return false
        }
        return true
    }

    /// Adds a row of the values in `columns` of `statement`'s current row, as they are.
    mutating func addValues(of statement: RawStatement, columns: [Int]) {
        for column in columns {
            let value = sqlite3_column_value(statement.raw, Int32(column))
            switch sqlite3_value_type(value) {
            case SQLITE_INTEGER: values.append(.integer(sqlite3_value_int64(value)))
            case SQLITE_FLOAT: values.append(.real(sqlite3_value_double(value)))
            case SQLITE_TEXT:
                let start = text.count
                let count = Int(sqlite3_value_bytes(value))
                if count > 0, let bytes = sqlite3_value_text(value) { text.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count)) }
                values.append(.text(start: start, count: count))
            default: values.append(.null)
            }
        }
    }

    /// Value `column` of row `row`.
    @inline(__always)
    func value(_ row: Int, _ column: Int) -> Value { values[row &* primitives.count &+ column] }

    /// Whether value `column` of row `row` is the stored value in column `statementColumn` of `statement`'s
    /// current row: the same type and the same value (doubles by their bits).
    func equals(_ row: Int, _ column: Int, _ statement: RawStatement, _ statementColumn: Int32) -> Bool {
        let stored = sqlite3_column_value(statement.raw, statementColumn)
        let type = sqlite3_value_type(stored)
        switch value(row, column) {
        case .null: return type == SQLITE_NULL
        case .integer(let number): return type == SQLITE_INTEGER && sqlite3_value_int64(stored) == number
        case .real(let number): return type == SQLITE_FLOAT && sqlite3_value_double(stored).bitPattern == number.bitPattern
        case .text(let start, let count):
            guard type == SQLITE_TEXT, Int(sqlite3_value_bytes(stored)) == count else { return false }
            guard count > 0, let bytes = sqlite3_value_text(stored) else { return true }
            return text.withUnsafeBufferPointer { $0.baseAddress.map { memcmp($0 + start, bytes, count) == 0 } ?? false }
        }
    }

    /// SQLite's order (BINARY collation) of value `column` of row `row` and the stored value in column
    /// `statementColumn` of `statement`'s current row: negative when the row's value comes first.
    func compare(_ row: Int, _ column: Int, _ statement: RawStatement, _ statementColumn: Int32) -> Int {
        let stored = sqlite3_column_value(statement.raw, statementColumn)
        let type = sqlite3_value_type(stored)
        let mine = value(row, column)
        let rankMine = Self.rank(mine), rankStored = MergeWalk.rank(type)
        if rankMine != rankStored { return rankMine < rankStored ? -1 : 1 }
        switch mine {
        case .null:
            return 0
        case .integer(let number):
            if type == SQLITE_INTEGER { return Self.order(number, sqlite3_value_int64(stored)) }
            return Self.order(Double(number), sqlite3_value_double(stored))
        case .real(let number):
            return Self.order(number, sqlite3_value_double(stored))
        case .text(let start, let count):
            return text.withUnsafeBytes {
                MergeWalk.bytewiseOrder(
                    $0.baseAddress.map { $0 + start }, count, sqlite3_value_text(stored).map(UnsafeRawPointer.init),
                    Int(sqlite3_value_bytes(stored)))
            }
        }
    }

    /// SQLite's order of value `column` of rows `a` and `b`.
    func compare(_ a: Int, _ b: Int, _ column: Int) -> Int {
        let x = value(a, column), y = value(b, column)
        let rankX = Self.rank(x), rankY = Self.rank(y)
        if rankX != rankY { return rankX < rankY ? -1 : 1 }
        switch (x, y) {
        case (.integer(let i), .integer(let j)): return Self.order(i, j)
        case (.integer(let i), .real(let j)): return Self.order(Double(i), j)
        case (.real(let i), .integer(let j)): return Self.order(i, Double(j))
        case (.real(let i), .real(let j)): return Self.order(i, j)
        case (.text(let startX, let countX), .text(let startY, let countY)):
            return text.withUnsafeBytes {
                MergeWalk.bytewiseOrder($0.baseAddress.map { $0 + startX }, countX, $0.baseAddress.map { $0 + startY }, countY)
            }
        default:
            return 0
        }
    }

    /// Binds value `column` of row `row` to parameter `index` (1-based) of `statement`.
    func bind(_ row: Int, _ column: Int, to statement: RawStatement, at index: Int32) {
        sqlite3_reset(statement.raw)
        switch value(row, column) {
        case .null: sqlite3_bind_null(statement.raw, index)
        case .integer(let number): sqlite3_bind_int64(statement.raw, index, number)
        case .real(let number): sqlite3_bind_double(statement.raw, index, number)
        case .text(let start, let count):
            text.withUnsafeBytes { bytes in
                // An empty text still needs a pointer: a nil one would bind NULL.
                let pointer = bytes.baseAddress.map { $0 + start } ?? UnsafeRawPointer(("" as StaticString).utf8Start)
                _ = sqlite3_bind_text64(
                    statement.raw, index, pointer.assumingMemoryBound(to: CChar.self), UInt64(count), RawStatement.transient,
                    UInt8(SQLITE_UTF8))
            }
        }
    }

    private static func order<T: Comparable>(_ x: T, _ y: T) -> Int { x < y ? -1 : x > y ? 1 : 0 }

    /// NULL < numbers < text, as SQLite orders them.
    private static func rank(_ value: Value) -> Int {
        switch value {
        case .null: 0
        case .integer, .real: 1
        case .text: 2
        }
    }

    /// Appends a record's values, checking each against its column's primitive.
    private struct Sink: FieldSink {
        let primitives: [FieldPrimitive]
        var values: [Value] = []
        var text: [UInt8] = []
        var column = 0
        var typed = true

        init(primitives: [FieldPrimitive]) {
            self.primitives = primitives
        }

        private mutating func append(_ value: Value, _ fits: (FieldPrimitive) -> Bool) {
            if column < primitives.count, fits(primitives[column]) {
                values.append(value)
            } else {
                typed = false
            }
            column += 1
        }

        mutating func writeNull() { append(.null) { _ in true } }

        mutating func writeText(_ utf8: UnsafeBufferPointer<UInt8>) {
            let start = text.count
            text.append(contentsOf: utf8)
            append(.text(start: start, count: utf8.count)) { $0 == .text }
        }

        mutating func write(_ value: Int) {
            // A REAL column stores an integer as a double.
            if column < primitives.count, primitives[column] == .real {
                append(.real(Double(value))) { _ in true }
            } else {
                append(.integer(Int64(value))) { $0 == .integer }
            }
        }

        mutating func write(_ value: Double) { append(.real(value)) { $0 == .real } }
    }
}
