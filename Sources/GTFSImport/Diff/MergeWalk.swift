import Foundation
import GRDB
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

    let old: OpaquePointer
    let new: OpaquePointer
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
            sqlite3_reset(old)
            sqlite3_reset(new)
        }
        var hasOld = try Self.advance(old)
        var hasNew = try Self.advance(new)
        var steps = 0
        while hasOld || hasNew {
            steps &+= 1
            if steps & 4095 == 0, isCancelled() { throw CancellationError() }
            let order = !hasOld ? 1 : !hasNew ? -1 : compareKeys()
            if order < 0 {
                try body(.onlyOld)
                hasOld = try Self.advance(old)
            } else if order > 0 {
                try body(.onlyNew)
                hasNew = try Self.advance(new)
            } else {
                try body(rowsAreEqual() ? .same : .changed)
                hasOld = try Self.advance(old)
                hasNew = try Self.advance(new)
            }
        }
    }

    /// Steps a statement: `true` on a row, `false` at the end.
    private static func advance(_ statement: OpaquePointer) throws -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code:
            let message = sqlite3_db_handle(statement).map { String(cString: sqlite3_errmsg($0)) } ?? "step failed"
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message)
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
        for column in 0 ..< columnCount {
            let type = sqlite3_column_type(old, column)
            guard type == sqlite3_column_type(new, column) else { return false }
            switch type {
            case SQLITE_NULL:
                continue
            case SQLITE_INTEGER:
                if sqlite3_column_int64(old, column) != sqlite3_column_int64(new, column) { return false }
            case SQLITE_FLOAT:
                if sqlite3_column_double(old, column).bitPattern != sqlite3_column_double(new, column).bitPattern { return false }
            default:
                if Self.compareBytes(old, new, column, text: type == SQLITE_TEXT) != 0 { return false }
            }
        }
        return true
    }

    /// SQLite's order of two values of column `column` (BINARY collation).
    static func compare(_ a: OpaquePointer, _ b: OpaquePointer, _ column: Int32) -> Int {
        let typeA = sqlite3_column_type(a, column)
        let typeB = sqlite3_column_type(b, column)
        let rankA = rank(typeA)
        let rankB = rank(typeB)
        if rankA != rankB { return rankA < rankB ? -1 : 1 }
        switch rankA {
        case 0:
            return 0
        case 1:
            if typeA == SQLITE_INTEGER && typeB == SQLITE_INTEGER {
                let x = sqlite3_column_int64(a, column)
                let y = sqlite3_column_int64(b, column)
                return x < y ? -1 : x > y ? 1 : 0
            }
            let x = sqlite3_column_double(a, column)
            let y = sqlite3_column_double(b, column)
            return x < y ? -1 : x > y ? 1 : 0
        default:
            return compareBytes(a, b, column, text: typeA == SQLITE_TEXT)
        }
    }

    /// NULL < numbers < text < blobs.
    private static func rank(_ type: Int32) -> Int {
        switch type {
        case SQLITE_NULL: 0
        case SQLITE_INTEGER, SQLITE_FLOAT: 1
        case SQLITE_TEXT: 2
        default: 3
        }
    }

    /// Bytewise order, the shorter first on a common prefix.
    private static func compareBytes(_ a: OpaquePointer, _ b: OpaquePointer, _ column: Int32, text: Bool) -> Int {
        let pointerA = text ? sqlite3_column_text(a, column).map(UnsafeRawPointer.init) : sqlite3_column_blob(a, column)
        let countA = Int(sqlite3_column_bytes(a, column))
        let pointerB = text ? sqlite3_column_text(b, column).map(UnsafeRawPointer.init) : sqlite3_column_blob(b, column)
        let countB = Int(sqlite3_column_bytes(b, column))
        let common = min(countA, countB)
        if common > 0, let pointerA, let pointerB {
            let order = memcmp(pointerA, pointerB, common)
            if order != 0 { return order < 0 ? -1 : 1 }
        }
        return countA < countB ? -1 : countA > countB ? 1 : 0
    }
}
