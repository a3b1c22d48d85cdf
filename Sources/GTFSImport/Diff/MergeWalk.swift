import Foundation
import GRDBSQLite

/// Walks two SELECT statements that return rows in the same key order (the store's rows and the new
/// ones) side by side and classifies every key, like the merge step of a merge sort.
///
/// Both statements select the same columns; `keyPositions` name the key columns among them, in ORDER BY
/// order. Keys compare as SQLite orders them with the BINARY collation (NULL, then numbers, then text by
/// bytes, then blobs), so the walk agrees with the index order SQLite reads them in. Rows compare by
/// type and exact value, column by column.
struct MergeWalk {
    /// What one step of the walk found.
    enum Step {
        /// A key only the store holds (the old statement's current row).
        case onlyOld
        /// A key only the new version holds (the new statement's current row).
        case onlyNew
        /// A key both hold, with different values (the new statement's current row).
        case changed
        /// A key both hold with identical rows.
        case same
    }

    let old: RawStatement
    let new: RawStatement
    let keyPositions: [Int32]
    /// The leading columns that make up a row (key expressions may follow them).
    let columnCount: Int32

    /// Runs the walk to the end of both statements, calling `body` once per key (per row for equal keys),
    /// then resets both statements.
    ///
    /// - Parameter isCancelled: polled every 4,096 steps.
    /// - Throws: `CancellationError`, an SQLite error while stepping, or what `body` throws.
    func run(isCancelled: () -> Bool, _ body: (Step) throws -> Void) throws {
        defer {
            old.reset()
            new.reset()
        }
        var hasOld = try old.step()
        var hasNew = try new.step()
        var steps = 0
        while hasOld || hasNew {
            steps &+= 1
            if steps & 4095 == 0, isCancelled() { throw CancellationError() }
            let order = !hasOld ? 1 : !hasNew ? -1 : compareKeys()
            if order < 0 {
                try body(.onlyOld)
                hasOld = try old.step()
            } else if order > 0 {
                try body(.onlyNew)
                hasNew = try new.step()
            } else {
                try body(rowsAreEqual() ? .same : .changed)
                hasOld = try old.step()
                hasNew = try new.step()
            }
        }
    }

    /// The order of the current keys: negative when the old one comes first.
    private func compareKeys() -> Int {
        for position in keyPositions {
            let order = Self.compare(old, new, position)
            if order != 0 { return order }
        }
        return 0
    }

    /// Whether the current rows hold the same values, with the same types.
    private func rowsAreEqual() -> Bool {
        for column in 0 ..< columnCount where !Self.sameValue(old, new, column) { return false }
        return true
    }

    /// Whether column `column` of the current rows of `a` and `b` holds the same value, of the same type.
    ///
    /// Reads each column once (`sqlite3_column_value`) and then its value: every `sqlite3_column_*` call
    /// takes the connection's mutex, and the walk compares millions of columns.
    static func sameValue(_ a: RawStatement, _ b: RawStatement, _ column: Int32) -> Bool {
        sameValue(a, column, b, column)
    }

    /// Whether column `columnA` of `a`'s current row and column `columnB` of `b`'s hold the same value, of
    /// the same type.
    static func sameValue(_ a: RawStatement, _ columnA: Int32, _ b: RawStatement, _ columnB: Int32) -> Bool {
        let x = sqlite3_column_value(a.raw, columnA), y = sqlite3_column_value(b.raw, columnB)
        let type = sqlite3_value_type(x)
        guard type == sqlite3_value_type(y) else { return false }
        switch type {
        case SQLITE_NULL: return true
        case SQLITE_INTEGER: return sqlite3_value_int64(x) == sqlite3_value_int64(y)
        case SQLITE_FLOAT: return sqlite3_value_double(x).bitPattern == sqlite3_value_double(y).bitPattern
        default: return compareBytes(x, y, text: type == SQLITE_TEXT) == 0
        }
    }

    /// SQLite's order of two values of column `column` (BINARY collation).
    static func compare(_ a: RawStatement, _ b: RawStatement, _ column: Int32) -> Int {
        let x = sqlite3_column_value(a.raw, column), y = sqlite3_column_value(b.raw, column)
        let typeX = sqlite3_value_type(x)
        let typeY = sqlite3_value_type(y)
        let rankX = rank(typeX)
        let rankY = rank(typeY)
        if rankX != rankY { return rankX < rankY ? -1 : 1 }
        switch rankX {
        case 0:
            return 0
        case 1:
            if typeX == SQLITE_INTEGER && typeY == SQLITE_INTEGER {
                let i = sqlite3_value_int64(x)
                let j = sqlite3_value_int64(y)
                return i < j ? -1 : i > j ? 1 : 0
            }
            let i = sqlite3_value_double(x)
            let j = sqlite3_value_double(y)
            return i < j ? -1 : i > j ? 1 : 0
        default:
            return compareBytes(x, y, text: typeX == SQLITE_TEXT)
        }
    }

    /// NULL < numbers < text < blobs.
    static func rank(_ type: Int32) -> Int {
        switch type {
        case SQLITE_NULL: 0
        case SQLITE_INTEGER, SQLITE_FLOAT: 1
        case SQLITE_TEXT: 2
        default: 3
        }
    }

    /// Bytewise order, the shorter first on a common prefix.
    private static func compareBytes(_ x: OpaquePointer?, _ y: OpaquePointer?, text: Bool) -> Int {
        let pointerX = text ? sqlite3_value_text(x).map(UnsafeRawPointer.init) : sqlite3_value_blob(x)
        let pointerY = text ? sqlite3_value_text(y).map(UnsafeRawPointer.init) : sqlite3_value_blob(y)
        return bytewiseOrder(pointerX, Int(sqlite3_value_bytes(x)), pointerY, Int(sqlite3_value_bytes(y)))
    }

    /// The BINARY collation's order of `countX` bytes at `x` and `countY` bytes at `y`: bytewise, the
    /// shorter first on a common prefix.
    static func bytewiseOrder(_ x: UnsafeRawPointer?, _ countX: Int, _ y: UnsafeRawPointer?, _ countY: Int) -> Int {
        let common = min(countX, countY)
        if common > 0, let x, let y {
            let order = memcmp(x, y, common)
            if order != 0 { return order < 0 ? -1 : 1 }
        }
        return countX < countY ? -1 : countX > countY ? 1 : 0
    }
}
